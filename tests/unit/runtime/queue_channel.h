#pragma once
// A CoreChannel for tests that carry cross-core messages themselves: every post lands in one
// queue shared by the test's cores, stamped with its sender, for the test to deliver as the
// reactors would (CrossCoreAsks<Work>::deliver, or the message's run). refuse makes posts
// fail, as a full queue does; one-way posts are never refused (a reactor keeps them).
#include <cstdint>
#include <deque>

#include "runtime/core_channel.h"
#include "runtime/message.h"

namespace runtime {

struct PostedMessage {
  uint32_t to = 0;
  Message message;
};

class QueueChannel final : public CoreChannel {
 public:
  QueueChannel(uint32_t core, uint32_t cores, std::deque<PostedMessage>& posted)
      : core_(core), cores_(cores), posted_(posted) {}
  uint32_t core() const override { return core_; }
  uint32_t cores() const override { return cores_; }
  bool post(uint32_t to_core, const Message& message) override {
    if (refuse) return false;
    Message m = message;
    m.from_core = core_;
    posted_.push_back({to_core, m});
    return true;
  }
  void post_one_way(uint32_t to_core, const Message& message) override {
    Message m = message;
    m.from_core = core_;
    posted_.push_back({to_core, m});
  }
  bool refuse = false;

 private:
  uint32_t core_;
  uint32_t cores_;
  std::deque<PostedMessage>& posted_;
};

}  // namespace runtime
