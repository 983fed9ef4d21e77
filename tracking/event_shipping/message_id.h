#pragma once
// How a shipped run is named in the stream (docs/events.md "Shipping to NATS JetStream"):
// subject "decisiond.events.<node id>", message id "<node id>:<core>:<first seq>-<last seq>",
// data the run's lines joined by line feeds (none after the last). The id is the run's
// identity: the stream drops a second message of one id within its duplicate window, and a
// restarted node reads back the runs it shipped after its checkpoint. Ids of the form
// "<node id>:<core>:<seq>", written before runs, are read as a run of that one line.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace tracking::event_shipping {

inline constexpr std::string_view kSubjectPrefix = "decisiond.events.";
// What the stream is created with: every node's subject.
inline constexpr std::string_view kStreamSubjects = "decisiond.events.>";

std::string ship_subject(std::string_view node_id);
// The id into out (replaced), without allocating once out has grown.
void format_message_id(std::string_view node_id, uint32_t core, uint64_t first_seq, uint64_t last_seq,
                       std::string& out);

struct RunId {
  uint32_t core = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;  // >= first_seq
  bool operator==(const RunId&) const = default;
};
// This node's id parsed; nullopt for another node's or anything malformed.
std::optional<RunId> parse_message_id(std::string_view id, std::string_view node_id);

struct NodeRunId {
  std::string_view node_id;  // a view into the id parsed
  RunId run;
};
// Any node's id, for readers of the whole stream: the node id is everything before the last
// two ':' (a node id may hold ':' itself, as "host:8080" does).
std::optional<NodeRunId> parse_any_message_id(std::string_view id);

// Whether a node id can end a subject: not empty, no whitespace, no wildcard ('*', '>'),
// no empty token (a leading, trailing or doubled '.'). The error says why.
absl::Status check_subject_node_id(std::string_view node_id);

}  // namespace tracking::event_shipping
