#include "runtime/check.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "runtime/log/logfmt.h"

namespace runtime {

void check_failed(const char* condition, const char* message, const char* file, int line) noexcept {
  // Into the stack and one write(2), not through the logger: its lock, its queues or the
  // heap may be what is broken, and a single write keeps the line whole when several cores
  // fail at once. The line is in the logger's format all the same.
  char what[512];
  const int length = message != nullptr
                         ? std::snprintf(what, sizeof what, "check failed: %s (%s) at %s:%d", condition, message, file,
                                         line)
                         : std::snprintf(what, sizeof what, "check failed: %s at %s:%d", condition, file, line);
  size_t size = length < 0 ? 0 : static_cast<size_t>(length);
  if (size >= sizeof what) size = sizeof what - 1;
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  char text[1024];
  log::LineText out(text, sizeof text);
  log::append_line(out, {static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000, log::Level::kError, "check"},
                   {}, {what, size});
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, out.view().data(), out.view().size());
  std::abort();
}

}  // namespace runtime
