#pragma once
// A test's own look at JetStream through the NATS C client (libnats): create and delete a
// stream, publish with a message id, and read back what a stream holds, in order, with
// each message's Nats-Msg-Id. Test code only; one connection, used from one thread.
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace integration {

// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kNatsRequestTimeout{5000};        // connect; one JetStream API request
inline constexpr std::chrono::milliseconds kNatsPublishDeadline{30000};      // a publish, with its retries
inline constexpr std::chrono::milliseconds kNatsStreamSettleTimeout{30000};  // wait_until_stream_whole
// all_messages (messages_after) refuses to read more sequences than this: a test stream is
// small, and a direct get per message would make a long one slow.
inline constexpr uint64_t kNatsInspectMessagesMax = 100000;

struct NatsLogin {
  std::string user;  // both empty: connect without credentials
  std::string password;
};

struct StoredMessage {
  uint64_t sequence = 0;
  std::string subject;
  std::string data;
  std::string msg_id;  // the Nats-Msg-Id header; empty when it had none
};

struct StreamPeer {
  std::string name;  // the server's name (NatsCluster::server_name)
  bool current = false;
  bool offline = false;
};

struct StreamEssentials {
  int replicas = 0;
  std::chrono::nanoseconds duplicate_window{0};
  uint64_t messages = 0;
  uint64_t first_sequence = 0;
  uint64_t last_sequence = 0;
  std::string leader;                 // empty while the stream has none
  std::vector<StreamPeer> followers;  // the other replicas, as the leader sees them
};

struct PublishAck {
  bool ok = false;
  bool duplicate = false;  // the stream already held a message of that id
  uint64_t sequence = 0;   // of the stored message (the first copy's, for a duplicate)
  int attempts = 0;
  std::string error;  // the last attempt's, when not ok
};

class NatsInspector {
 public:
  // server_urls: "nats://host:port" each (NatsCluster::server_urls). Connects at once;
  // ok() says whether it did and error() why not (an Authorization Violation, say).
  explicit NatsInspector(const std::vector<std::string>& server_urls, NatsLogin login = {});
  NatsInspector(const NatsInspector&) = delete;
  NatsInspector& operator=(const NatsInspector&) = delete;
  ~NatsInspector();

  bool ok() const { return js_ != nullptr; }
  // Why the connection or the last call failed.
  const std::string& error() const { return error_; }

  // File storage; the stream's replicas and duplicate window as given.
  bool create_stream(const std::string& name, const std::vector<std::string>& subjects, int replicas,
                     std::chrono::milliseconds duplicate_window);
  bool delete_stream(const std::string& name);
  std::optional<StreamEssentials> stream_info(const std::string& name);
  std::optional<uint64_t> stream_message_count(const std::string& name);
  // Every message in sequence order, read one direct get per sequence from the stream's
  // leader (deleted sequences skipped).
  std::optional<std::vector<StoredMessage>> all_messages(const std::string& name);
  // The same for the messages after sequence_read only: a poll reads what is new since the
  // last one.
  std::optional<std::vector<StoredMessage>> messages_after(const std::string& name, uint64_t sequence_read);
  // Until the stream has a leader and every other replica is current and online.
  bool wait_until_stream_whole(const std::string& name, std::chrono::milliseconds timeout = kNatsStreamSettleTimeout);

  // Published with the Nats-Msg-Id header msg_id and retried under the same id until the
  // stream acknowledges it or the deadline passes: while a stream elects a leader a
  // publish gets no answer or a 503, and the id keeps a retried one from being stored twice.
  PublishAck publish(const std::string& subject, const std::string& data, const std::string& msg_id,
                     std::chrono::milliseconds deadline = kNatsPublishDeadline);

 private:
  bool fail(const std::string& what, natsStatus status, jsErrCode js_error = static_cast<jsErrCode>(0));

  natsConnection* connection_ = nullptr;
  jsCtx* js_ = nullptr;
  std::string error_;
};

}  // namespace integration
