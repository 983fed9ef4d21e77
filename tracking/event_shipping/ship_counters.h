#pragma once
// What the event shipper counts (docs/events.md "Shipping to NATS JetStream"). The shipper's
// thread is the one writer of every value; scrapes on any core read them.
#include <cstdint>

#include "runtime/core_counter.h"

namespace tracking::event_shipping {

// decisiond_events_sink_connection_state
enum class SinkConnectionState : uint64_t {
  kConnecting = 0,
  kConnected = 1,
  kDisconnected = 2,   // the library reconnects
  kClosed = 3,         // the connection ended: reopened every few seconds
  kCredentialsRefused = 4,
};

// decisiond_events_sink_stream_state
enum class SinkStreamState : uint64_t {
  kNotYet = 0,         // no server answered yet
  kCreated = 1,
  kUsedAsIs = 2,
  kUsedWithDifferences = 3,  // it exists with other settings (logged), used as it is
  kRefused = 4,        // cannot be looked up or created (logged with the servers' reason); tried again
};

// Per core of the node. A core's own log, and the logs of cores gone after a change of
// --cores: directory core-<d> counts under core d % cores.
struct ShipCoreCounters {
  runtime::CoreCounter oldest_unshipped_ms;  // time of the oldest line written, not acknowledged; 0: caught up
  runtime::CoreCounter lines_behind;         // sequence numbers written, not acknowledged
  runtime::CoreCounter bytes_behind;
  runtime::CoreCounter lines_shipped;        // acknowledged by the stream
  runtime::CoreCounter torn_lines;           // passed over: not whole lines
  runtime::CoreCounter files_removed;        // shipped, older than --events-retain, not needed at start
};

// The node's.
struct ShipperCounters {
  runtime::CoreCounter connection_state;     // SinkConnectionState
  runtime::CoreCounter stream_state;         // SinkStreamState
  runtime::CoreCounter publish_errors;       // publishes refused, or unanswered past the timeout
  runtime::CoreCounter republished_lines;    // published again after an error, a timeout or a reconnection
  runtime::CoreCounter duplicates;           // acknowledgements saying the stream held the id already
  runtime::CoreCounter read_back_lines;      // found in the stream by a read-back: not published again
  runtime::CoreCounter read_backs;           // reads of the stream before publishing again
  runtime::CoreCounter checkpoint_errors;    // checkpoints the disk refused (the old one stays)
  runtime::CoreCounter log_errors;           // reads or syncs of a log file the disk refused (tried again)
};

}  // namespace tracking::event_shipping
