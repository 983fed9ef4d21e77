#pragma once
// The shipper's lines on stderr: states and their changes, said once each, never one per
// event line.
#include <string>
#include <string_view>

namespace tracking::event_shipping {

// "decisiond: events sink: <text>".
void say(std::string_view text);

// Says text when it differs from what this subject said last (an error that persists is
// said once; a new one, or its end, again).
class SaidOnce {
 public:
  void say_if_new(std::string_view text);
  void clear() { last_.clear(); }

 private:
  std::string last_;
};

}  // namespace tracking::event_shipping
