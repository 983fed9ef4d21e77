#pragma once
// The shipper's way to the stream: one NATS connection (reopened when it ends: the library
// closes it for good on refused credentials), the stream made to exist, the asynchronous
// publisher. Driven by the shipper's thread, one turn at a time, never waiting longer than
// one JetStream API request. Each change of state is said once on stderr and kept in the
// node's counters: connected, disconnected, closed, credentials refused; stream created,
// used as it is (with what differs), cannot be set up (with the servers' reason).
#include <cstdint>
#include <memory>
#include <string>

#include "nats_jetstream/async_publisher.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/stream_setup.h"
#include "tracking/event_shipping/ship_counters.h"
#include "tracking/event_shipping/sink_log.h"

namespace tracking::event_shipping {

struct SinkSettings {
  nats_jetstream::ConnectionSettings connection;
  nats_jetstream::StreamSpec stream;
  uint32_t max_pending = 16384;   // unacknowledged publishes at once
  int64_t reopen_ms = 5000;       // after the connection closed for good
  int64_t setup_retry_ms = 5000;  // after the stream could not be set up
};

class SinkLink {
 public:
  SinkLink(SinkSettings settings, nats_jetstream::PublishListener& listener, ShipperCounters& counters);
  ~SinkLink();
  SinkLink(const SinkLink&) = delete;
  SinkLink& operator=(const SinkLink&) = delete;

  // One turn: opens or reopens the connection, says what changed, sets the stream up. True
  // while connected with the stream set up and a publisher: publishing may go on.
  bool ready(int64_t now_ms);
  // A refusal that may mean the stream is gone (no responders): look it up (and create it)
  // again at the next turn allowed.
  void recheck_stream() { stream_ok_ = false; }

  bool has_publisher() const { return publisher_ != nullptr; }
  nats_jetstream::AsyncPublisher& publisher() { return *publisher_; }
  jsCtx* jetstream() { return jetstream_.get(); }
  const std::string& stream_name() const { return settings_.stream.name; }
  // The stream's last sequence when it was last set up: no message published after that
  // has a lower one.
  uint64_t stream_last_seq_at_setup() const { return stream_last_seq_; }
  // The most data one message may carry: the servers' max_payload and the stream's largest
  // message, less room for the headers (the message id).
  uint64_t max_message_bytes() const;
  // Changes each time the connection came back (reconnected, or reopened): answers to what
  // was in flight before may never come.
  uint64_t epoch() const;
  void close();

 private:
  void open(int64_t now_ms);
  void watch_connection(int64_t now_ms);
  bool set_up_stream(int64_t now_ms);
  void set_connection_state(SinkConnectionState state, const std::string& detail);
  void set_stream_state(SinkStreamState state, const std::string& detail);

  const SinkSettings settings_;
  nats_jetstream::PublishListener& listener_;
  ShipperCounters& counters_;
  std::unique_ptr<nats_jetstream::JetStreamConnection> connection_;
  nats_jetstream::JetStreamPtr jetstream_{nullptr, &jsCtx_Destroy};
  std::unique_ptr<nats_jetstream::AsyncPublisher> publisher_;
  int64_t reopen_at_ms_ = 0;
  int64_t setup_at_ms_ = 0;
  bool stream_ok_ = false;
  uint64_t stream_last_seq_ = 0;
  int64_t stream_max_message_bytes_ = -1;
  uint64_t reopens_ = 0;
  bool said_connection_ = false;
  SinkConnectionState said_state_ = SinkConnectionState::kConnecting;
  std::string said_detail_;
  SaidOnce said_stream_;
};

}  // namespace tracking::event_shipping
