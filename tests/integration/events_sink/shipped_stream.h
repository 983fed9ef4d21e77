#pragma once
// What the event shipping tests compare (docs/events.md "Shipping to NATS JetStream"): the
// lines of the stream's messages, read by the NATS fixture's own client, against the lines
// of the nodes' logs, by identity "<node id>:<core>:<seq>" and by their bytes. A message
// holds a run of one core's lines joined by line feeds, named "<node id>:<core>:<first
// seq>-<last seq>" (or "<node id>:<core>:<seq>" for one line, as shipped before runs).
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/nats_cluster/nats_inspector.h"
#include "tests/integration/server_process.h"

namespace integration {

inline constexpr char kEventsStream[] = "decisiond-events";
// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kShippedTimeout{90000};

// Every whole line of a node's log (every core directory), keyed by its identity
// "<node id>:<core>:<seq>", its bytes without the line feed.
std::map<std::string, std::string> logged_lines(const std::string& node_id, const std::string& state_dir);
// The same for several nodes at once (node ids "node<i>", as ClusterNodes names them).
std::map<std::string, std::string> logged_lines_of(const std::vector<std::string>& state_dirs);

// Every line once in the stream, with its bytes, and nothing else; each message named after
// the run it holds and on its node's subject. A failure lists the lines missing, twice, not
// logged or altered, and the messages misnamed, with a few examples.
::testing::AssertionResult StreamHoldsEachLineOnce(const std::vector<StoredMessage>& messages,
                                                   const std::map<std::string, std::string>& logged);

// Polls until the stream's messages hold as many lines as the logs (read again at each poll)
// do; then the messages. nullopt when the stream cannot be read; the comparison says what
// differs when the deadline passed first.
std::optional<std::vector<StoredMessage>> wait_for_stream_to_hold(NatsInspector& nats,
                                                                  const std::vector<std::string>& state_dirs,
                                                                  std::chrono::milliseconds timeout = kShippedTimeout);

// The lines the stream's messages hold (nullopt when it cannot be read): what the nodes'
// decisiond_events_shipped_lines_total add up to.
std::optional<uint64_t> stream_line_count(NatsInspector& nats);

// The sum of metric over a node's cores (nullopt when the page lacks it).
std::optional<double> node_metric(const ServerProcess& node, std::string_view metric);
// Until the node says every core is caught up (lag, lines and bytes behind all 0).
bool wait_until_caught_up(const ServerProcess& node, std::chrono::milliseconds timeout = kShippedTimeout);
// Until metric, summed over the node's cores, is above floor; or equals value.
bool wait_for_more(const ServerProcess& node, std::string_view metric, double floor,
                   std::chrono::milliseconds timeout = kShippedTimeout);
bool wait_for_value(const ServerProcess& node, std::string_view metric, double value,
                    std::chrono::milliseconds timeout = kShippedTimeout);

}  // namespace integration
