#pragma once
// One connection to a NATS cluster with JetStream, through the NATS C client (libnats),
// which connects, reconnects and delivers acknowledgements on threads of its own: never
// use this from a reactor. Opening never waits for a server: while none answers the
// connection keeps trying (forever, every reconnect_wait) and state() says so, so a node
// starts and serves with its broker down.
#include <nats/nats.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "nats_jetstream/server_list.h"
#include "runtime/check.h"

namespace nats_jetstream {

struct Credentials {
  std::string user;        // with password: NATS user/password authorization
  std::string password;
  std::string creds_file;  // a NATS credentials file (JWT and NKey seed), instead of the above
};

struct ConnectionSettings {
  ServerList servers;
  Credentials credentials;
  std::string client_name;                          // shown by the servers' monitoring
  std::chrono::milliseconds reconnect_wait{500};    // between attempts, once all servers failed
  std::chrono::milliseconds timeout{2000};          // a connect attempt; JetStream API requests
};

enum class ConnectionState : int { kConnecting = 0, kConnected = 1, kDisconnected = 2, kClosed = 3 };
const char* state_name(ConnectionState state);

using JetStreamPtr = std::unique_ptr<jsCtx, void (*)(jsCtx*)>;

class JetStreamConnection {
 public:
  // Fails only on settings the library refuses (an unreadable credentials file, ...) or
  // credentials a server refused at once (PermissionDenied); a server that does not answer
  // is not an error.
  static absl::StatusOr<std::unique_ptr<JetStreamConnection>> open(const ConnectionSettings& settings);
  // One attempt, no retry, closed at once: why the servers refuse a connection that closed
  // without ever connecting (the library says only "no server available" then).
  // PermissionDenied: credentials refused; Unavailable: none answers, or another reason.
  static absl::Status probe(const ConnectionSettings& settings);
  ~JetStreamConnection();
  JetStreamConnection(const JetStreamConnection&) = delete;
  JetStreamConnection& operator=(const JetStreamConnection&) = delete;

  ConnectionState state() const { return state_.load(std::memory_order_acquire); }
  bool connected() const { return state() == ConnectionState::kConnected; }
  // Until connected or closed, at most timeout; whether connected.
  bool wait_connected(std::chrono::milliseconds timeout);
  uint64_t reconnects() const { return reconnects_.load(std::memory_order_relaxed); }
  // The last error the servers or the library reported on this connection ("" if none).
  std::string last_error() const;

  natsConnection* nats() {
    DECISIOND_CHECK(connection_ != nullptr);
    return connection_;
  }
  // A JetStream context with these options (async publish handlers, API timeout, ...).
  absl::StatusOr<JetStreamPtr> jetstream(jsOptions& options);
  // One with the library's defaults and settings.timeout as the API timeout.
  absl::StatusOr<JetStreamPtr> jetstream();

 private:
  explicit JetStreamConnection(ConnectionSettings settings) : settings_(std::move(settings)) {}
  static void on_connected(natsConnection* connection, void* self);
  static void on_disconnected(natsConnection* connection, void* self);
  static void on_reconnected(natsConnection* connection, void* self);
  static void on_closed(natsConnection* connection, void* self);
  static void on_error(natsConnection* connection, natsSubscription* subscription, natsStatus status, void* self);
  void set_state(ConnectionState state);
  void remember_error(natsConnection* connection);

  ConnectionSettings settings_;
  natsConnection* connection_ = nullptr;
  std::atomic<ConnectionState> state_{ConnectionState::kConnecting};
  std::atomic<uint64_t> reconnects_{0};
  std::atomic<bool> closed_callback_done_{false};  // the destructor waits for it
  mutable std::mutex error_mutex_;  // the library's threads write, the owner reads: not a hot path
  std::string last_error_;
};

// "<what>: <the library's status text>[: <its last error>]", for messages.
std::string describe_status(const char* what, natsStatus status);

}  // namespace nats_jetstream
