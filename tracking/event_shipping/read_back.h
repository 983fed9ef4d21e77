#pragma once
// What this node's logs have in the stream already, read back before publishing again (at
// start after a checkpoint, or after a publish failed or went unanswered): the message ids
// on subject decisiond.events.<node id> stored after a stream sequence, by core. A line
// found is not published again, so the stream holds it once however long the node was away
// (the duplicate window covers only what is in flight meanwhile). The read is as long as
// what was published since the oldest line not known to be acknowledged: the window of
// unacknowledged lines, and what was acknowledged after the last checkpoint was written.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "nats_jetstream/stream_reader.h"

namespace tracking::event_shipping {

struct ReadBack {
  // By core: (stream sequence, line seq), in stream order.
  std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> found;
  uint64_t messages = 0;        // read, this node's
  uint64_t stream_last_seq = 0; // the stream's last sequence when the read began
};

// Reads this node's messages stored after after_stream_seq. A stream whose last sequence is
// below after_stream_seq was made again (deleted and created): it is read from its start.
absl::StatusOr<ReadBack> read_back_shipped(jsCtx* jetstream, const std::string& stream, const std::string& node_id,
                                           uint64_t after_stream_seq);

}  // namespace tracking::event_shipping
