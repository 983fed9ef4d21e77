#pragma once
// The shipper's log lines: states and their changes, said once each, never one per event
// line. Each at the level of what it tells: a connection made is news, a failure is a warning,
// lines the shipper cannot read or a checkpoint it cannot keep are errors.
#include <string>
#include <string_view>

#include "runtime/log/level.h"

namespace tracking::event_shipping {

// msg="events sink: <text>" in component events_sink.
void say(runtime::log::Level level, std::string_view text);

// Says text when it differs from what this subject said last (an error that persists is
// said once; a new one, or its end, again).
class SaidOnce {
 public:
  void say_if_new(runtime::log::Level level, std::string_view text);
  void clear() { last_.clear(); }

 private:
  std::string last_;
};

}  // namespace tracking::event_shipping
