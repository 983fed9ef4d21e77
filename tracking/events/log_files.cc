#include "tracking/events/log_files.h"

#include <dirent.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace tracking::events {

namespace {
constexpr std::string_view kSuffix = ".jsonl";
constexpr std::string_view kCorePrefix = "core-";

template <typename T>
bool parse_number(std::string_view text, T& out) {
  if (text.empty()) return false;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), out);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

std::vector<std::string> entries(const std::string& directory) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return names;
  while (const dirent* e = ::readdir(dir)) names.emplace_back(e->d_name);
  ::closedir(dir);
  return names;
}
}  // namespace

std::string events_dir(std::string_view state_dir) { return std::string(state_dir) + "/events"; }

std::string core_dir(std::string_view state_dir, uint32_t core) {
  return events_dir(state_dir) + "/" + std::string(kCorePrefix) + std::to_string(core);
}

std::string log_file_name(uint64_t first_seq) {
  char name[32];
  std::snprintf(name, sizeof(name), "%020llu", static_cast<unsigned long long>(first_seq));
  return name + std::string(kSuffix);
}

std::string log_file_path(std::string_view core_directory, uint64_t first_seq) {
  return std::string(core_directory) + "/" + log_file_name(first_seq);
}

std::vector<LogFile> list_log_files(const std::string& core_directory) {
  std::vector<LogFile> files;
  for (const std::string& name : entries(core_directory)) {
    std::string_view view = name;
    if (!view.ends_with(kSuffix)) continue;
    view.remove_suffix(kSuffix.size());
    uint64_t first = 0;
    if (view.size() != 20 || !parse_number(view, first)) continue;
    files.push_back({core_directory + "/" + name, first});
  }
  std::sort(files.begin(), files.end(), [](const LogFile& a, const LogFile& b) { return a.first_seq < b.first_seq; });
  return files;
}

std::vector<uint32_t> list_core_dirs(std::string_view state_dir) {
  std::vector<uint32_t> cores;
  for (const std::string& name : entries(events_dir(state_dir))) {
    std::string_view view = name;
    if (!view.starts_with(kCorePrefix)) continue;
    uint32_t core = 0;
    if (parse_number(view.substr(kCorePrefix.size()), core)) cores.push_back(core);
  }
  std::sort(cores.begin(), cores.end());
  return cores;
}

}  // namespace tracking::events
