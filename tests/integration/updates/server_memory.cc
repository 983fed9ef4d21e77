#include "tests/integration/updates/server_memory.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#ifndef DECISIOND_BINARY
#error "DECISIOND_BINARY must name the decisiond binary (set by tests/integration/updates/CMakeLists.txt)"
#endif

namespace integration::updates {

namespace {
// From /proc/<pid>/stat: "pid (comm) state ppid ...", comm may hold spaces and parentheses.
bool is_running_child(const std::filesystem::path& proc_dir) {
  std::ifstream in(proc_dir / "stat");
  std::string stat;
  std::getline(in, stat);
  const size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 4 > stat.size()) return false;
  char state = stat[close + 2];
  const long parent = std::strtol(stat.c_str() + close + 4, nullptr, 10);
  return parent == ::getpid() && state != 'Z' && state != 'X';
}
}  // namespace

std::optional<pid_t> running_server_pid() {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::weakly_canonical(DECISIOND_BINARY, error);
  std::optional<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ignored;
    if (std::filesystem::read_symlink(entry.path() / "exe", ignored) != binary) continue;
    if (!is_running_child(entry.path())) continue;
    if (found) return std::nullopt;
    found = static_cast<pid_t>(std::stol(name));
  }
  return found;
}

std::optional<uint64_t> resident_bytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmRSS:  1234 kB"
  }
  return std::nullopt;
}

}  // namespace integration::updates
