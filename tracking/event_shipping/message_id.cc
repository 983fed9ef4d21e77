#include "tracking/event_shipping/message_id.h"

#include <charconv>

#include "absl/strings/str_cat.h"

namespace tracking::event_shipping {

std::string ship_subject(std::string_view node_id) { return std::string(kSubjectPrefix) + std::string(node_id); }

void format_message_id(std::string_view node_id, uint32_t core, uint64_t seq, std::string& out) {
  out.assign(node_id);
  char digits[24];
  out.push_back(':');
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), core).ptr);
  out.push_back(':');
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), seq).ptr);
}

std::optional<LineId> parse_message_id(std::string_view id, std::string_view node_id) {
  if (id.size() < node_id.size() + 4 || !id.starts_with(node_id) || id[node_id.size()] != ':') return std::nullopt;
  const std::string_view rest = id.substr(node_id.size() + 1);
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  LineId line;
  const char* end = rest.data() + rest.size();
  const auto core = std::from_chars(rest.data(), rest.data() + colon, line.core);
  const auto seq = std::from_chars(rest.data() + colon + 1, end, line.seq);
  if (core.ec != std::errc() || core.ptr != rest.data() + colon || colon == 0) return std::nullopt;
  if (seq.ec != std::errc() || seq.ptr != end || colon + 1 == rest.size()) return std::nullopt;
  return line;
}

absl::Status check_subject_node_id(std::string_view node_id) {
  if (node_id.empty()) return absl::InvalidArgumentError("empty");
  if (node_id.front() == '.' || node_id.back() == '.' || node_id.find("..") != std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("'", std::string(node_id), "' has an empty subject token (a '.' at an end or doubled)"));
  }
  for (char c : node_id) {
    if (c == '*' || c == '>' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      return absl::InvalidArgumentError(
          absl::StrCat("'", std::string(node_id), "' holds '", std::string(1, c), "', which a subject or a message id cannot"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tracking::event_shipping
