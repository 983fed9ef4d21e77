#pragma once
// Told when an impression's line has been appended to the core's event log: the reply that
// acknowledges the impression may leave now, in the same loop turn as the line's write
// (docs/events.md "Durability"). Used where the line waits for an answer from elsewhere (the
// shared cap store in cluster mode).
namespace tracking::impressions {

class ImpressionLogged {
 public:
  virtual ~ImpressionLogged() = default;
  virtual void impression_logged() = 0;
};

}  // namespace tracking::impressions
