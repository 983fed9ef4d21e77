#pragma once
// The reactor as a CoreChannel.
#include "runtime/core_channel.h"
#include "runtime/reactor.h"

namespace runtime {

class ReactorChannel final : public CoreChannel {
 public:
  explicit ReactorChannel(Reactor& reactor) : reactor_(reactor) {}
  uint32_t core() const override { return reactor_.index(); }
  uint32_t cores() const override { return reactor_.cores(); }
  bool post(uint32_t to_core, const Message& message) override { return reactor_.post(to_core, message); }
  void post_one_way(uint32_t to_core, const Message& message) override { reactor_.post_one_way(to_core, message); }

 private:
  Reactor& reactor_;
};

}  // namespace runtime
