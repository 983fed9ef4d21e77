#pragma once
// Where decisiond-events reads events: the log files of one or more state directories
// (every core's, rotated and live), or the NATS JetStream stream the nodes ship them to
// (docs/events.md "Shipping"), whose messages hold the same lines, a run of them each.
#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "tools/decisiond-events/command_line.h"
#include "tracking/events/event_line.h"

namespace decisiond_events {

struct SourceStats {
  uint64_t events = 0;
  uint64_t unreadable = 0;  // torn last lines, or lines of messages that are not events
};

using EventVisitor = std::function<void(const tracking::events::ParsedEvent&)>;

SourceStats read_state_dirs(const Options& options, const EventVisitor& visit);
// Every message of the stream at the time of the call (of --node's subject only, if given).
absl::StatusOr<SourceStats> read_event_stream(const Options& options, const EventVisitor& visit);

}  // namespace decisiond_events
