#include "tests/integration/event_log_lines.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/integration/json_body.h"

namespace integration {

namespace {

std::optional<uint64_t> uint_member(simdjson::dom::element object, std::string_view key) {
  const auto e = member(object, key);
  if (!e) return std::nullopt;
  if (e->is_uint64()) return uint64_t(e->get_uint64());
  if (e->is_int64() && int64_t(e->get_int64()) >= 0) return static_cast<uint64_t>(int64_t(e->get_int64()));
  return std::nullopt;
}

std::optional<uint32_t> core_of_directory(const std::filesystem::path& directory) {
  const std::string name = directory.filename().string();
  if (name.rfind("core-", 0) != 0 || name.size() == 5) return std::nullopt;
  uint32_t n = 0;
  for (char c : name.substr(5)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint32_t>(c - '0');
  }
  return n;
}

}  // namespace

std::vector<EventLine> read_event_lines(const std::string& state_dir, size_t* unreadable) {
  std::vector<EventLine> out;
  if (unreadable != nullptr) *unreadable = 0;
  const std::filesystem::path events = std::filesystem::path(state_dir) / "events";
  std::error_code error;
  if (!std::filesystem::is_directory(events, error)) return out;
  std::vector<std::pair<uint32_t, std::filesystem::path>> files;
  for (const auto& dir : std::filesystem::directory_iterator(events, error)) {
    const std::optional<uint32_t> core = core_of_directory(dir.path());
    if (!core || !dir.is_directory(error)) continue;
    for (const auto& file : std::filesystem::directory_iterator(dir.path(), error)) {
      if (file.path().extension() == ".jsonl") files.emplace_back(*core, file.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& [core, path] : files) {
    std::ifstream in(path, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t start = 0;
    while (start < content.size()) {
      const size_t end = content.find('\n', start);
      if (end == std::string::npos) break;  // torn: no newline yet
      const std::string text = content.substr(start, end - start);
      start = end + 1;
      JsonBody json(text);
      if (!json.ok() || !json.root().is_object()) {
        if (unreadable != nullptr) ++*unreadable;
        continue;
      }
      const simdjson::dom::element root = json.root();
      EventLine line;
      line.text = text;
      line.file_core = core;
      line.seq = uint_member(root, "seq");
      line.time_ms = int_member(root, "time_ms");
      line.kind = string_member(root, "kind").value_or("");
      line.event = string_member(root, "event");
      line.ad = uint_member(root, "ad");
      line.creative = uint_member(root, "creative");
      line.placement = uint_member(root, "placement");
      line.request = string_member(root, "request");
      line.user = string_member(root, "user");
      line.core = uint_member(root, "core");
      if (const auto d = member(root, "duplicate"); d && d->is_bool()) line.duplicate = bool(d->get_bool());
      line.issued_s = int_member(root, "issued_s");
      line.expires_s = int_member(root, "expires_s");
      line.token = string_member(root, "token");
      line.code = int_member(root, "code");
      out.push_back(std::move(line));
    }
  }
  return out;
}

std::vector<EventLine> wait_for_event_lines(const std::string& state_dir,
                                            const std::function<bool(const std::vector<EventLine>&)>& done,
                                            std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<EventLine> lines = read_event_lines(state_dir);
  while (!done(lines) && std::chrono::steady_clock::now() < deadline) {
    // Polling interval only; the timeout is the bound.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    lines = read_event_lines(state_dir);
  }
  return lines;
}

size_t count_kind(const std::vector<EventLine>& lines, std::string_view kind) {
  return static_cast<size_t>(std::count_if(lines.begin(), lines.end(), [&](const EventLine& l) { return l.kind == kind; }));
}

size_t count_impressions(const std::vector<EventLine>& lines, bool duplicate) {
  return static_cast<size_t>(std::count_if(lines.begin(), lines.end(), [&](const EventLine& l) {
    return l.kind == "impression" && l.duplicate.value_or(false) == duplicate;
  }));
}

bool is_hex(std::string_view text, size_t n) {
  return text.size() == n && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace integration
