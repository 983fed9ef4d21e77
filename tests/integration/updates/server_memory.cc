#include "tests/integration/updates/server_memory.h"

#include <fstream>
#include <string>

namespace integration::updates {

std::optional<uint64_t> resident_bytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmRSS:  1234 kB"
  }
  return std::nullopt;
}

}  // namespace integration::updates
