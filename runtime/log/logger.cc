#include "runtime/log/logger.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/log/core_lines.h"
#include "runtime/log/line_output.h"
#include "runtime/log/writer_thread.h"

namespace runtime::log {

namespace {

std::atomic<Level> level_in_force{Level::kInfo};

// On a reactor: into a slot of its queue, and the writer nudged. Nothing here waits.
void queue(CoreLines& lines, Level at, const char* component, const char* format, va_list args) {
  QueuedLine line;
  line.wall_ms = LineOutput::instance().now_ms();
  line.component = component;
  line.format = format;
  line.level = at;
  line.core = lines.core();
  const int formatted = std::vsnprintf(line.message, sizeof line.message, format, args);
  line.formatted_bytes = formatted < 0 ? 0 : static_cast<uint32_t>(formatted);
  if (lines.offer(line)) wake_writer();
}

// Anywhere else: formatted whole (a refused catalog lists every error) and written now.
void write_now(Level at, const char* component, const char* format, va_list args) {
  char small[1024];
  va_list again;
  va_copy(again, args);
  const int formatted = std::vsnprintf(small, sizeof small, format, args);
  std::string large;
  std::string_view message(small, formatted < 0 ? 0 : static_cast<size_t>(formatted));
  if (formatted >= static_cast<int>(sizeof small)) {
    large.resize(static_cast<size_t>(formatted) + 1);
    std::vsnprintf(large.data(), large.size(), format, again);
    large.pop_back();
    message = large;
  }
  va_end(again);
  const CoreLines* lines = this_thread_lines();
  const int32_t core = lines != nullptr ? static_cast<int32_t>(lines->core()) : -1;
  LineOutput& output = LineOutput::instance();
  output.write_now({output.now_ms(), at, component, core}, {component, format}, message);
}

}  // namespace

void set_level(Level at) { level_in_force.store(at, std::memory_order_relaxed); }

Level level() { return level_in_force.load(std::memory_order_relaxed); }

void Logger::emit(Level at, bool now, const char* format, va_list args) const {
  CoreLines* lines = this_thread_lines();
  if (lines != nullptr && !now) {
    queue(*lines, at, component_, format, args);
  } else {
    write_now(at, component_, format, args);
  }
}

#define DECISIOND_LOG_AT(name, at)                       \
  void Logger::name(const char* format, ...) const {     \
    if (!enabled(at)) return;                            \
    va_list args;                                        \
    va_start(args, format);                              \
    emit(at, false, format, args);                        \
    va_end(args);                                        \
  }

DECISIOND_LOG_AT(error, Level::kError)
DECISIOND_LOG_AT(warn, Level::kWarn)
DECISIOND_LOG_AT(info, Level::kInfo)
DECISIOND_LOG_AT(debug, Level::kDebug)

#undef DECISIOND_LOG_AT

void Logger::say(Level at, const char* format, ...) const {
  if (!enabled(at)) return;
  va_list args;
  va_start(args, format);
  emit(at, false, format, args);
  va_end(args);
}

void Logger::error_then_abort(const char* format, ...) const {
  va_list args;
  va_start(args, format);
  emit(Level::kError, true, format, args);
  va_end(args);
  std::abort();
}

}  // namespace runtime::log
