#include "tests/integration/cluster/soak_log.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/json_body.h"
#include "tracking/dedup/impression_key.h"

namespace integration {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The impression identity of the ad a decision line served: the same hash of (request id,
// ad, creative, placement) its impression token's identity is (tracking/dedup/impression_key.h).
std::string decision_identity(simdjson::dom::element line) {
  const std::string request = string_member(line, "request").value_or("");
  if (request.size() != 32) return {};
  tracking::TrackingEvent event;
  for (size_t i = 0; i < 16; ++i) {
    const int high = hex_digit(request[2 * i]);
    const int low = hex_digit(request[2 * i + 1]);
    if (high < 0 || low < 0) return {};
    event.request_id[i] = static_cast<uint8_t>(high * 16 + low);
  }
  event.ad_id = static_cast<uint64_t>(int_member(line, "ad").value_or(0));
  event.creative_id = static_cast<uint64_t>(int_member(line, "creative").value_or(0));
  event.placement_id = static_cast<uint64_t>(int_member(line, "placement").value_or(0));
  return hex16(tracking::dedup::impression_identity(event));
}

// One core's files, in seq order, with the bounds of each line's write.
void read_core(const std::filesystem::path& core_dir, uint32_t node, simdjson::dom::parser& parser,
               std::vector<SoakLine>& lines) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& file : std::filesystem::directory_iterator(core_dir, error)) files.push_back(file.path());
  std::sort(files.begin(), files.end());
  const size_t first = lines.size();
  int64_t latest_time_ms = 0;
  for (const auto& path : files) {
    std::ifstream in(path);
    std::string text;
    while (std::getline(in, text)) {
      if (in.eof()) break;  // no line feed after it: torn
      simdjson::dom::element root;
      if (parser.parse(text).get(root) != simdjson::SUCCESS) continue;
      SoakLine l;
      l.node = node;
      l.core = static_cast<uint32_t>(int_member(root, "core").value_or(0));
      l.seq = static_cast<uint64_t>(int_member(root, "seq").value_or(0));
      l.time_ms = int_member(root, "time_ms").value_or(0);
      latest_time_ms = std::max(latest_time_ms, l.time_ms);
      l.written_earliest_ms = latest_time_ms;
      l.kind = string_member(root, "kind").value_or("");
      l.ad = static_cast<uint64_t>(int_member(root, "ad").value_or(0));
      l.user = string_member(root, "user").value_or("");
      if (const auto d = member(root, "duplicate")) l.duplicate = d->is_bool() && bool(d->get_bool());
      l.identity = l.kind == "decision" ? decision_identity(root) : string_member(root, "token").value_or("");
      l.store = string_member(root, "store").value_or("");
      l.attempt = string_member(root, "attempt").value_or("");
      l.invalid = string_member(root, "invalid").value_or("");
      lines.push_back(std::move(l));
    }
  }
  int64_t next_decision_ms = std::numeric_limits<int64_t>::max();
  for (size_t i = lines.size(); i > first; --i) {
    SoakLine& l = lines[i - 1];
    if (l.kind == "decision") {
      l.written_latest_ms = l.written_earliest_ms;
      next_decision_ms = l.time_ms;
    } else {
      l.written_latest_ms = std::max(next_decision_ms, l.written_earliest_ms);
    }
  }
}

}  // namespace

std::vector<SoakLine> read_soak_lines(const std::string& state_dir, uint32_t node) {
  std::vector<SoakLine> lines;
  const std::filesystem::path events = std::filesystem::path(state_dir) / "events";
  std::error_code error;
  if (!std::filesystem::exists(events, error)) return lines;
  simdjson::dom::parser parser;  // one for every line: the logs hold hundreds of thousands
  for (const auto& core : std::filesystem::directory_iterator(events, error)) read_core(core.path(), node, parser, lines);
  return lines;
}

}  // namespace integration
