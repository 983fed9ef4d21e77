#pragma once
// What this node's logs have in the stream already, read back before publishing again (at
// start after a checkpoint, or after a publish failed or went unanswered): the message ids
// on subject decisiond.events.<node id> stored after a stream sequence, by core. A line in
// a run found is not published again, and a run is never cut across one found, so the
// stream holds each line once however long the node was away, however the runs were cut
// before (the duplicate window covers only what is in flight meanwhile). The read is as long as
// what was published since the oldest line not known to be acknowledged: the window of
// unacknowledged lines, and what was acknowledged after the last checkpoint was written.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nats_jetstream/stream_reader.h"

namespace tracking::event_shipping {

// A run of this node's found in the stream, by its message id.
struct FoundRun {
  uint64_t stream_seq = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
};

struct ReadBack {
  // By core, in stream order.
  std::map<uint32_t, std::vector<FoundRun>> found;
  uint64_t messages = 0;        // read, this node's
  uint64_t stream_last_seq = 0; // the stream's last sequence when the read began
};

// Reads this node's messages stored after after_stream_seq. A stream whose last sequence is
// below after_stream_seq was made again (deleted and created): it is read from its start.
absl::StatusOr<ReadBack> read_back_shipped(jsCtx* jetstream, const std::string& stream, const std::string& node_id,
                                           uint64_t after_stream_seq);

}  // namespace tracking::event_shipping
