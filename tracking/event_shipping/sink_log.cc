#include "tracking/event_shipping/sink_log.h"

#include "runtime/log/logger.h"

namespace tracking::event_shipping {

namespace {
constexpr runtime::log::Logger kShipperLog("events_sink");
}  // namespace

void say(runtime::log::Level level, std::string_view text) {
  kShipperLog.say(level, "events sink: %.*s", static_cast<int>(text.size()), text.data());
}

void SaidOnce::say_if_new(runtime::log::Level level, std::string_view text) {
  if (text == last_) return;
  last_ = text;
  say(level, text);
}

}  // namespace tracking::event_shipping
