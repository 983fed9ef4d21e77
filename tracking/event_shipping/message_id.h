#pragma once
// How a shipped line is named in the stream (docs/events.md "Shipping to NATS JetStream"):
// subject "decisiond.events.<node id>", message id "<node id>:<core>:<seq>". The id is the
// line's identity: the stream drops a second message of one id within its duplicate window,
// and a restarted node reads back the ids it shipped after its checkpoint.
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
void format_message_id(std::string_view node_id, uint32_t core, uint64_t seq, std::string& out);

struct LineId {
  uint32_t core = 0;
  uint64_t seq = 0;
};
// This node's id parsed; nullopt for another node's or anything malformed.
std::optional<LineId> parse_message_id(std::string_view id, std::string_view node_id);

// Whether a node id can end a subject: not empty, no whitespace, no wildcard ('*', '>'),
// no empty token (a leading, trailing or doubled '.'). The error says why.
absl::Status check_subject_node_id(std::string_view node_id);

}  // namespace tracking::event_shipping
