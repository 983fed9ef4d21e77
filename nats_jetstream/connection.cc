#include "nats_jetstream/connection.h"

#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"

namespace nats_jetstream {

const char* state_name(ConnectionState state) {
  switch (state) {
    case ConnectionState::kConnecting: return "connecting";
    case ConnectionState::kConnected: return "connected";
    case ConnectionState::kDisconnected: return "disconnected";
    case ConnectionState::kClosed: return "closed";
  }
  return "unknown";
}

std::string describe_status(const char* what, natsStatus status) {
  std::string text = absl::StrCat(what, ": ", natsStatus_GetText(status));
  natsStatus last_status = NATS_OK;
  const char* last = nats_GetLastError(&last_status);
  if (last != nullptr && last[0] != '\0' && last_status == status) absl::StrAppend(&text, ": ", last);
  return text;
}

namespace {
struct OptionsDeleter {
  void operator()(natsOptions* options) const { natsOptions_Destroy(options); }
};
using OptionsPtr = std::unique_ptr<natsOptions, OptionsDeleter>;

// What every connection of these settings has: the servers, the credentials, the name and
// the connect timeout.
absl::StatusOr<OptionsPtr> base_options(const ConnectionSettings& settings) {
  natsOptions* raw = nullptr;
  if (natsStatus s = natsOptions_Create(&raw); s != NATS_OK) {
    return absl::InternalError(describe_status("natsOptions_Create", s));
  }
  OptionsPtr options(raw);
  std::vector<const char*> urls;
  for (const std::string& url : settings.servers.urls) urls.push_back(url.c_str());
  DECISIOND_CHECK(!urls.empty() && urls.size() <= INT32_MAX);  // open() and probe() refuse none
  const Credentials& c = settings.credentials;
  natsStatus s = natsOptions_SetServers(raw, urls.data(), static_cast<int>(urls.size()));
  if (s == NATS_OK && !c.user.empty()) s = natsOptions_SetUserInfo(raw, c.user.c_str(), c.password.c_str());
  if (s == NATS_OK && !c.creds_file.empty()) s = natsOptions_SetUserCredentialsFromFiles(raw, c.creds_file.c_str(), nullptr);
  if (s == NATS_OK && !settings.client_name.empty()) s = natsOptions_SetName(raw, settings.client_name.c_str());
  if (s == NATS_OK) s = natsOptions_SetTimeout(raw, settings.timeout.count());
  if (s != NATS_OK) return absl::InvalidArgumentError(describe_status("NATS options", s));
  return options;
}
}  // namespace

absl::StatusOr<std::unique_ptr<JetStreamConnection>> JetStreamConnection::open(const ConnectionSettings& settings) {
  if (settings.servers.urls.empty()) return absl::InvalidArgumentError("no NATS servers");
  std::unique_ptr<JetStreamConnection> self(new JetStreamConnection(settings));
  absl::StatusOr<OptionsPtr> options = base_options(settings);
  if (!options.ok()) return options.status();
  natsOptions* raw = options->get();
  natsStatus s = natsOptions_SetMaxReconnect(raw, -1);
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(raw, settings.reconnect_wait.count());
  // What is published while disconnected is held by the callers (their windows), not by a
  // library buffer whose overflow would fail publishes silently.
  if (s == NATS_OK) s = natsOptions_SetReconnectBufSize(raw, 8 << 20);
  if (s == NATS_OK) s = natsOptions_SetDisconnectedCB(raw, &JetStreamConnection::on_disconnected, self.get());
  if (s == NATS_OK) s = natsOptions_SetReconnectedCB(raw, &JetStreamConnection::on_reconnected, self.get());
  if (s == NATS_OK) s = natsOptions_SetClosedCB(raw, &JetStreamConnection::on_closed, self.get());
  if (s == NATS_OK) s = natsOptions_SetErrorHandler(raw, &JetStreamConnection::on_error, self.get());
  if (s == NATS_OK) s = natsOptions_SetRetryOnFailedConnect(raw, true, &JetStreamConnection::on_connected, self.get());
  if (s != NATS_OK) return absl::InvalidArgumentError(describe_status("NATS options", s));

  s = natsConnection_Connect(&self->connection_, raw);
  // Connected, or retrying in the background (RetryOnFailedConnect): a connection either way.
  DECISIOND_CHECK((s != NATS_OK && s != NATS_NOT_YET_CONNECTED) || self->connection_ != nullptr);
  if (s == NATS_OK) {
    self->set_state(ConnectionState::kConnected);
  } else if (s == NATS_CONNECTION_AUTH_FAILED || s == NATS_NOT_PERMITTED) {
    return absl::PermissionDeniedError(describe_status("NATS connect", s));
  } else if (s != NATS_NOT_YET_CONNECTED) {
    return absl::UnavailableError(describe_status("NATS connect", s));
  }
  return self;
}

absl::Status JetStreamConnection::probe(const ConnectionSettings& settings) {
  if (settings.servers.urls.empty()) return absl::InvalidArgumentError("no NATS servers");
  absl::StatusOr<OptionsPtr> options = base_options(settings);
  if (!options.ok()) return options.status();
  natsConnection* connection = nullptr;
  const natsStatus s = natsConnection_Connect(&connection, options->get());
  if (connection != nullptr) {
    natsConnection_Close(connection);
    natsConnection_Destroy(connection);
  }
  if (s == NATS_OK) return absl::OkStatus();
  if (s == NATS_CONNECTION_AUTH_FAILED || s == NATS_NOT_PERMITTED) {
    return absl::PermissionDeniedError(describe_status("NATS connect", s));
  }
  return absl::UnavailableError(describe_status("NATS connect", s));
}

JetStreamConnection::~JetStreamConnection() {
  if (connection_ == nullptr) return;
  natsConnection_Close(connection_);
  // The library posts the closed callback to a thread of its own and does not wait for it:
  // this object is the callback's argument, so it must outlive that call. Bounded, so a
  // library that never calls back cannot hang a shutdown.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!closed_callback_done_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  natsConnection_Destroy(connection_);
}

bool JetStreamConnection::wait_connected(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!connected() && state() != ConnectionState::kClosed && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return connected();
}

std::string JetStreamConnection::last_error() const {
  std::lock_guard<std::mutex> lock(error_mutex_);
  return last_error_;
}

absl::StatusOr<JetStreamPtr> JetStreamConnection::jetstream(jsOptions& options) {
  DECISIOND_CHECK(connection_ != nullptr);  // open() returns none without one
  jsCtx* context = nullptr;
  if (natsStatus s = natsConnection_JetStream(&context, connection_, &options); s != NATS_OK) {
    return absl::InternalError(describe_status("JetStream context", s));
  }
  return JetStreamPtr(context, &jsCtx_Destroy);
}

absl::StatusOr<JetStreamPtr> JetStreamConnection::jetstream() {
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = settings_.timeout.count();
  return jetstream(options);
}

void JetStreamConnection::set_state(ConnectionState state) { state_.store(state, std::memory_order_release); }

void JetStreamConnection::remember_error(natsConnection* connection) {
  const char* text = nullptr;
  if (natsConnection_GetLastError(connection, &text) != NATS_OK && text != nullptr && text[0] != '\0') {
    std::lock_guard<std::mutex> lock(error_mutex_);
    last_error_ = text;
  }
}

void JetStreamConnection::on_connected(natsConnection*, void* self) {
  static_cast<JetStreamConnection*>(self)->set_state(ConnectionState::kConnected);
}

void JetStreamConnection::on_disconnected(natsConnection* connection, void* self) {
  auto* me = static_cast<JetStreamConnection*>(self);
  me->remember_error(connection);
  if (me->state() != ConnectionState::kClosed) me->set_state(ConnectionState::kDisconnected);
}

void JetStreamConnection::on_reconnected(natsConnection*, void* self) {
  auto* me = static_cast<JetStreamConnection*>(self);
  me->reconnects_.fetch_add(1, std::memory_order_relaxed);
  me->set_state(ConnectionState::kConnected);
}

void JetStreamConnection::on_closed(natsConnection* connection, void* self) {
  auto* me = static_cast<JetStreamConnection*>(self);
  me->remember_error(connection);
  me->set_state(ConnectionState::kClosed);
  me->closed_callback_done_.store(true, std::memory_order_release);  // the last touch of *me
}

void JetStreamConnection::on_error(natsConnection*, natsSubscription*, natsStatus status, void* self) {
  auto* me = static_cast<JetStreamConnection*>(self);
  std::lock_guard<std::mutex> lock(me->error_mutex_);
  me->last_error_ = natsStatus_GetText(status);
}

}  // namespace nats_jetstream
