#include "tracking/event_shipping/sink_log.h"

#include <cstdio>

namespace tracking::event_shipping {

void say(std::string_view text) {
  std::fprintf(stderr, "decisiond: events sink: %.*s\n", static_cast<int>(text.size()), text.data());
}

void SaidOnce::say_if_new(std::string_view text) {
  if (text == last_) return;
  last_ = text;
  say(text);
}

}  // namespace tracking::event_shipping
