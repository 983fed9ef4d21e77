#pragma once
// The one logger (docs/operations.md "Logs"). Each component names itself once:
//
//   constexpr runtime::log::Logger kLog("redis");
//   kLog.warn("redis %s: connection lost: %.*s", node.c_str(), int(why.size()), why.data());
//
// and each line is one logfmt line on stderr: its time, level, component, the core that
// said it (on a reactor) and the message. A line below --log-level costs a load and a
// compare. On a reactor the line is queued for the writer thread and the core goes on (a
// full queue drops it, counted); on any other thread it is written before the call returns,
// in order with what the cores queued before it. Lines alike (one component, one template)
// past kLinesPerWindow in kRepeatWindowMs are held back and summed up in one line.
#include <cstdarg>

#include "runtime/log/level.h"

namespace runtime::log {

// The level in force; Level::kInfo until the flags set it. Any thread may read it.
void set_level(Level level);
Level level();

class Logger {
 public:
  explicit constexpr Logger(const char* component) : component_(component) {}

  void error(const char* format, ...) const __attribute__((format(printf, 2, 3)));
  void warn(const char* format, ...) const __attribute__((format(printf, 2, 3)));
  void info(const char* format, ...) const __attribute__((format(printf, 2, 3)));
  void debug(const char* format, ...) const __attribute__((format(printf, 2, 3)));
  // One template whose level depends on what happened (a state gone up or down).
  void say(Level at, const char* format, ...) const __attribute__((format(printf, 3, 4)));

  // An error the process cannot go on from: written at once, on any thread, after what the
  // cores queued before it; then abort().
  [[noreturn]] void error_then_abort(const char* format, ...) const __attribute__((format(printf, 2, 3)));

  bool enabled(Level at) const { return at <= level(); }
  const char* component() const { return component_; }

 private:
  void emit(Level at, bool now, const char* format, va_list args) const;

  const char* component_;
};

}  // namespace runtime::log
