#pragma once
// A cross-core message: a function to run on the receiving core and a small inline
// payload. Fixed size so queues never allocate; anything bigger travels as a pointer
// whose ownership the two sides agree on.
#include <cstdint>

namespace runtime {

class Reactor;

struct Message {
  void (*run)(Reactor& here, const Message& message) = nullptr;
  uint32_t from_core = 0;
  uint32_t tag = 0;
  uint64_t words[4] = {};
  void* pointer = nullptr;
};

}  // namespace runtime
