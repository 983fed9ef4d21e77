#include "runtime/check.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace runtime {

void check_failed(const char* condition, const char* message, const char* file, int line) noexcept {
  // snprintf into the stack and one write(2): stdio's buffer may be what is broken, and
  // a single write keeps the line whole when several cores fail at once.
  char text[512];
  const int length = message != nullptr
                         ? std::snprintf(text, sizeof text, "decisiond: check failed: %s (%s) at %s:%d\n", condition,
                                         message, file, line)
                         : std::snprintf(text, sizeof text, "decisiond: check failed: %s at %s:%d\n", condition, file,
                                         line);
  if (length > 0) {
    const size_t size = static_cast<size_t>(length) < sizeof text ? static_cast<size_t>(length) : sizeof text - 1;
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text, size);
  }
  std::abort();
}

}  // namespace runtime
