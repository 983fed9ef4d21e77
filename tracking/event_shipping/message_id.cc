#include "tracking/event_shipping/message_id.h"

#include <charconv>

#include "absl/strings/str_cat.h"

namespace tracking::event_shipping {

std::string ship_subject(std::string_view node_id) { return std::string(kSubjectPrefix) + std::string(node_id); }

void format_message_id(std::string_view node_id, uint32_t core, uint64_t first_seq, uint64_t last_seq,
                       std::string& out) {
  out.assign(node_id);
  char digits[24];
  out.push_back(':');
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), core).ptr);
  out.push_back(':');
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), first_seq).ptr);
  out.push_back('-');
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), last_seq).ptr);
}

namespace {
// "<core>:<first>-<last>" or "<core>:<seq>", the whole of text.
std::optional<RunId> parse_core_and_seqs(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
  RunId run;
  const char* end = text.data() + text.size();
  const auto core = std::from_chars(text.data(), text.data() + colon, run.core);
  if (core.ec != std::errc() || core.ptr != text.data() + colon) return std::nullopt;
  const char* seqs = text.data() + colon + 1;
  const auto first = std::from_chars(seqs, end, run.first_seq);
  if (first.ec != std::errc()) return std::nullopt;
  if (first.ptr == end) {
    run.last_seq = run.first_seq;
    return run;
  }
  if (*first.ptr != '-') return std::nullopt;
  const auto last = std::from_chars(first.ptr + 1, end, run.last_seq);
  if (last.ec != std::errc() || last.ptr != end || last.ptr == first.ptr + 1 || run.last_seq < run.first_seq) {
    return std::nullopt;
  }
  return run;
}
}  // namespace

std::optional<NodeRunId> parse_any_message_id(std::string_view id) {
  const size_t last_colon = id.rfind(':');
  if (last_colon == std::string_view::npos || last_colon == 0) return std::nullopt;
  const size_t core_colon = id.rfind(':', last_colon - 1);
  if (core_colon == std::string_view::npos || core_colon == 0) return std::nullopt;
  const std::optional<RunId> run = parse_core_and_seqs(id.substr(core_colon + 1));
  if (!run) return std::nullopt;
  return NodeRunId{id.substr(0, core_colon), *run};
}

std::optional<RunId> parse_message_id(std::string_view id, std::string_view node_id) {
  const std::optional<NodeRunId> any = parse_any_message_id(id);
  if (!any || any->node_id != node_id) return std::nullopt;
  return any->run;
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
