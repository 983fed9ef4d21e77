#include "tracking/event_shipping/sink_link.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "nats_jetstream/stream_reader.h"
#include "tracking/event_shipping/sink_log.h"

namespace tracking::event_shipping {

namespace {
constexpr int64_t kLeaderWaitMs = 100;  // a new stream's leader is elected in about a second
// A message's headers ("NATS/1.0", Nats-Msg-Id and its id of a node id, a core and two
// seqs) take less than this of the servers' max_payload.
constexpr int64_t kHeaderRoom = 1024;
// nats-server's max_payload when the connection has not said its own yet.
constexpr int64_t kNatsDefaultMaxPayload = 1024 * 1024;
}  // namespace

SinkLink::SinkLink(SinkSettings settings, nats_jetstream::PublishListener& listener, ShipperCounters& counters)
    : settings_(std::move(settings)), listener_(listener), counters_(counters) {}

SinkLink::~SinkLink() { close(); }

void SinkLink::close() {
  publisher_.reset();  // waits for the library's last answer callback
  jetstream_.reset();
  connection_.reset();
}

uint64_t SinkLink::epoch() const { return reopens_ + (connection_ ? connection_->reconnects() : 0); }

bool SinkLink::ready(int64_t now_ms) {
  if (!connection_) {
    if (now_ms < reopen_at_ms_) return false;
    open(now_ms);
    if (!connection_) return false;
  }
  watch_connection(now_ms);
  if (!connection_ || !connection_->connected()) return false;
  if (!publisher_) {
    absl::StatusOr<std::unique_ptr<nats_jetstream::AsyncPublisher>> made =
        nats_jetstream::AsyncPublisher::create(*connection_, {settings_.max_pending}, listener_);
    if (!made.ok()) {
      say(runtime::log::Level::kWarn, absl::StrCat("cannot publish: ", made.status().message()));
      return false;
    }
    publisher_ = *std::move(made);
  }
  return stream_ok_ || set_up_stream(now_ms);
}

void SinkLink::open(int64_t now_ms) {
  reopen_at_ms_ = now_ms + settings_.reopen_ms;
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> opened =
      nats_jetstream::JetStreamConnection::open(settings_.connection);
  if (!opened.ok()) {
    set_connection_state(absl::IsPermissionDenied(opened.status()) ? SinkConnectionState::kCredentialsRefused
                                                                     : SinkConnectionState::kClosed,
                         std::string(opened.status().message()));
    return;
  }
  connection_ = *std::move(opened);
  absl::StatusOr<nats_jetstream::JetStreamPtr> context = connection_->jetstream();
  if (!context.ok()) {
    set_connection_state(SinkConnectionState::kClosed, std::string(context.status().message()));
    connection_.reset();
    return;
  }
  jetstream_ = *std::move(context);
  ++reopens_;
}

void SinkLink::watch_connection(int64_t now_ms) {
  using nats_jetstream::ConnectionState;
  const std::string servers = nats_jetstream::describe(settings_.connection.servers);
  switch (connection_->state()) {
    case ConnectionState::kConnecting:
      // Opened again after it closed: still closed (or refused) until it connects.
      if (said_state_ != SinkConnectionState::kClosed && said_state_ != SinkConnectionState::kCredentialsRefused) {
        set_connection_state(SinkConnectionState::kConnecting, servers);
      }
      return;
    case ConnectionState::kConnected:
      set_connection_state(SinkConnectionState::kConnected, servers);
      return;
    case ConnectionState::kDisconnected:
      set_connection_state(SinkConnectionState::kDisconnected, connection_->last_error());
      return;
    case ConnectionState::kClosed: break;
  }
  // Closed for good (the library gives up on refused credentials at once): ask one attempt
  // why, then open again later.
  const absl::Status why = nats_jetstream::JetStreamConnection::probe(settings_.connection);
  close();
  reopen_at_ms_ = now_ms + settings_.reopen_ms;
  stream_ok_ = false;
  if (absl::IsPermissionDenied(why)) {
    set_connection_state(SinkConnectionState::kCredentialsRefused, std::string(why.message()));
  } else {
    set_connection_state(SinkConnectionState::kClosed, why.ok() ? "closed by the library" : std::string(why.message()));
  }
}

uint64_t SinkLink::max_message_bytes() const {
  const int64_t payload = connection_ != nullptr ? natsConnection_GetMaxPayload(connection_->nats()) : 0;
  int64_t most = payload > 0 ? payload : kNatsDefaultMaxPayload;
  if (stream_max_message_bytes_ > 0) most = std::min(most, stream_max_message_bytes_);
  return static_cast<uint64_t>(std::max<int64_t>(most - kHeaderRoom, kHeaderRoom));
}

bool SinkLink::set_up_stream(int64_t now_ms) {
  if (now_ms < setup_at_ms_) return false;
  setup_at_ms_ = now_ms + settings_.setup_retry_ms;
  const nats_jetstream::StreamSpec& spec = settings_.stream;
  const absl::StatusOr<nats_jetstream::StreamSetup> setup = nats_jetstream::ensure_stream(jetstream_.get(), spec);
  if (!setup.ok()) {
    set_stream_state(SinkStreamState::kRefused, absl::StrCat("stream ", spec.name, " cannot be set up: ",
                                                            setup.status().message(), "; lines stay on disk, tried "
                                                            "again every ", settings_.setup_retry_ms / 1000, "s"));
    return false;
  }
  // A stream just created (or one whose leader went) answers no publish until it has a
  // leader: asked again shortly rather than published to and counted as refusals.
  const absl::StatusOr<nats_jetstream::StreamStatus> status = nats_jetstream::stream_status(jetstream_.get(), spec.name);
  if (!status.ok() || !status->has_leader) {
    setup_at_ms_ = now_ms + kLeaderWaitMs;
    return false;
  }
  stream_last_seq_ = status->last_sequence;
  stream_max_message_bytes_ = setup->max_message_bytes;
  stream_ok_ = true;
  if (setup->created) {
    set_stream_state(SinkStreamState::kCreated,
                     absl::StrCat("stream ", spec.name, " created (replicas ", spec.replicas, ", duplicate window ",
                                  spec.duplicate_window.count(), "s)"));
  } else if (!setup->differences.empty()) {
    set_stream_state(SinkStreamState::kUsedWithDifferences,
                     absl::StrCat("stream ", spec.name, " exists with other settings, used as it is: ",
                                  setup->differences));
  } else {
    set_stream_state(SinkStreamState::kUsedAsIs, absl::StrCat("stream ", spec.name, " exists, used as it is"));
  }
  return true;
}

void SinkLink::set_connection_state(SinkConnectionState state, const std::string& detail) {
  counters_.connection_state.set(static_cast<uint64_t>(state));
  // Each change said once: a reopen that fails as the last one did says nothing new.
  if (said_connection_ && state == said_state_ && (detail == said_detail_ || state == SinkConnectionState::kDisconnected)) {
    return;
  }
  said_connection_ = true;
  said_state_ = state;
  said_detail_ = detail;
  switch (state) {
    case SinkConnectionState::kConnecting: say(runtime::log::Level::kInfo, absl::StrCat("connecting to ", detail)); return;
    case SinkConnectionState::kConnected: say(runtime::log::Level::kInfo, absl::StrCat("connected to ", detail)); return;
    case SinkConnectionState::kDisconnected:
      say(runtime::log::Level::kWarn, absl::StrCat("disconnected (", detail.empty() ? "no reason given" : detail,
                             "); reconnecting, lines stay on disk meanwhile"));
      return;
    case SinkConnectionState::kClosed:
      say(runtime::log::Level::kWarn, absl::StrCat("connection closed (", detail, "); opened again every ", settings_.reopen_ms / 1000,
                             "s, lines stay on disk meanwhile"));
      return;
    case SinkConnectionState::kCredentialsRefused:
      say(runtime::log::Level::kError, absl::StrCat("credentials refused by the servers (", detail, "); tried again every ",
                             settings_.reopen_ms / 1000, "s, lines stay on disk meanwhile"));
      return;
  }
}

void SinkLink::set_stream_state(SinkStreamState state, const std::string& detail) {
  counters_.stream_state.set(static_cast<uint64_t>(state));
  // A stream made or found as wanted is news; one with other settings, or none, is not right.
  const bool as_wanted = state == SinkStreamState::kCreated || state == SinkStreamState::kUsedAsIs;
  said_stream_.say_if_new(as_wanted ? runtime::log::Level::kInfo : runtime::log::Level::kWarn, detail);
}

}  // namespace tracking::event_shipping
