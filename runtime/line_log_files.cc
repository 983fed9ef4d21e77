#include "runtime/line_log_files.h"

#include <cstdio>

namespace runtime {

std::string WallClockFiles::file_name(int64_t wall_ms) {
  char name[32];
  std::snprintf(name, sizeof(name), "%013lld.jsonl", static_cast<long long>(wall_ms));
  return name;
}

std::string WallClockFiles::next_name(bool) {
  const int64_t now_ms = clock_.wall_ns() / 1'000'000;
  last_name_ms_ = now_ms > last_name_ms_ ? now_ms : last_name_ms_ + 1;
  return file_name(last_name_ms_);
}

}  // namespace runtime
