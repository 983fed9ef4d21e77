#pragma once
// Items held in order, each with the mark it waits for (a count of lines appended, say),
// released from the front once their mark has passed: what runtime/answer_gate.h and
// runtime/after_lines_written.h hold. A fixed ring allocated at construction: at most
// `capacity` items (checked; the callers' own bounds keep them under it).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/check.h"

namespace runtime {

template <typename T>
class MarkedRing {
 public:
  explicit MarkedRing(size_t capacity) : ring_(capacity) {}

  void push(uint64_t mark, const T& item) {
    DECISIOND_CHECK_MSG(count_ < ring_.size(), "marked ring: more held than its bound");
    ring_[(head_ + count_) % ring_.size()] = Held{mark, item};
    ++count_;
  }

  // visit(item) for each item from the front while passed(its mark); an item behind one
  // not passed waits for it, so items leave in the order they came. visit may push.
  template <typename Passed, typename Visit>
  void release(Passed&& passed, Visit&& visit) {
    while (count_ > 0 && passed(ring_[head_].mark)) {
      const T item = ring_[head_].item;
      head_ = (head_ + 1) % ring_.size();
      --count_;
      visit(item);
    }
  }

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 private:
  struct Held {
    uint64_t mark = 0;
    T item{};
  };
  std::vector<Held> ring_;
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace runtime
