#include "tracking/event_shipping/read_back.h"

#include "tracking/event_shipping/message_id.h"

namespace tracking::event_shipping {

namespace {
// An ordered consumer pushes with flow control: a few seconds without a message while some
// are due means the servers are not answering.
constexpr std::chrono::milliseconds kIdleTimeout{5000};
}  // namespace

absl::StatusOr<ReadBack> read_back_shipped(jsCtx* jetstream, const std::string& stream, const std::string& node_id,
                                           uint64_t after_stream_seq) {
  ReadBack back;
  const absl::StatusOr<uint64_t> last = nats_jetstream::stream_last_sequence(jetstream, stream);
  if (!last.ok()) return last.status();
  back.stream_last_seq = *last;
  if (*last == after_stream_seq) return back;
  nats_jetstream::StreamReadOptions options;
  options.subject_filter = ship_subject(node_id);
  options.start_sequence = *last < after_stream_seq ? 1 : after_stream_seq + 1;
  options.idle_timeout = kIdleTimeout;
  const absl::Status read =
      nats_jetstream::read_stream(jetstream, stream, options, [&](const nats_jetstream::StreamMessage& message) {
        const std::optional<RunId> id = parse_message_id(message.message_id, node_id);
        if (!id) return;
        ++back.messages;
        back.found[id->core].push_back(FoundRun{message.stream_seq, id->first_seq, id->last_seq});
      });
  if (!read.ok()) return read;
  return back;
}

}  // namespace tracking::event_shipping
