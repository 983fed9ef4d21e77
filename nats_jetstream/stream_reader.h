#pragma once
// Reads a stream's messages in order, from its first (or from a time) to the last one it
// held when the read began, through an ordered consumer: one push consumer the servers
// forget afterwards, with flow control, so millions of messages cost no request each.
// For tools and start-up checks; blocking, never on a reactor.
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace nats_jetstream {

struct StreamMessage {
  uint64_t stream_seq = 0;
  int64_t stored_unix_ns = 0;   // when the stream stored it
  std::string_view subject;
  std::string_view message_id;  // the Nats-Msg-Id header; empty when absent
  std::string_view data;
};

struct StreamReadOptions {
  std::string subject_filter;   // empty: every subject of the stream
  int64_t start_unix_ns = 0;    // 0: from the first message; else the first stored at or after
  uint64_t start_sequence = 0;  // else, when not 0: from this stream sequence on
  // No message for this long while some are still expected: the read fails rather than hangs.
  std::chrono::milliseconds idle_timeout{10000};
};

struct StreamStatus {
  uint64_t last_sequence = 0;  // 0: empty
  bool has_leader = true;      // false while a replicated stream elects one (publishes go unanswered)
};
// The stream's status now; NotFound without the stream.
absl::StatusOr<StreamStatus> stream_status(jsCtx* jetstream, const std::string& stream);
// Its last sequence now.
absl::StatusOr<uint64_t> stream_last_sequence(jsCtx* jetstream, const std::string& stream);

// Calls visit for each message (its views live during the call only). An empty stream is
// not an error; a missing stream is (NotFound).
absl::Status read_stream(jsCtx* jetstream, const std::string& stream, const StreamReadOptions& options,
                         const std::function<void(const StreamMessage&)>& visit);

}  // namespace nats_jetstream
