#pragma once
// What a handler above the runtime may do with other cores: post a message to one of them.
// The reactor is the one implementation (reactor_channel.h); code above it (decision,
// tracking) sees only this, never the ring.
//
// The rule of the house: a message carries values, or a pointer to an object that the two
// cores agree is handed over with it. While one core holds such an object the other does
// not touch it; the object goes back by another message.
#include <cstdint>

#include "runtime/message.h"

namespace runtime {

class CoreChannel {
 public:
  virtual ~CoreChannel() = default;
  virtual uint32_t core() const = 0;
  virtual uint32_t cores() const = 0;
  // Queues message for to_core (possibly this one); false when that queue is full.
  [[nodiscard]] virtual bool post(uint32_t to_core, const Message& message) = 0;
};

}  // namespace runtime
