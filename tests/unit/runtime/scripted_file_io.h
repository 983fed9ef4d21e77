#pragma once
// A FileIo whose every operation waits in `ops` until the test completes it, and whose loop
// hooks run when the test says a loop turn ends: for the writers built on FileIo
// (runtime/line_log.h) and what waits on them (runtime/answer_gate.h), step by step.
#include <algorithm>
#include <deque>
#include <vector>

#include "runtime/file_io.h"

namespace runtime {

class ScriptedFileIo final : public FileIo {
 public:
  struct Op {
    char kind;  // 'w'rite, 's'ync, 'o'pen, 'c'lose
    size_t length;
    FileCompletion* done;
    uint8_t tag;
    uint64_t offset;
  };
  std::deque<Op> ops;
  std::vector<LoopHook*> hooks;

  void write(int, const char*, size_t length, uint64_t offset, FileCompletion& done, uint8_t tag) override {
    ops.push_back({'w', length, &done, tag, offset});
  }
  void sync_data(int, FileCompletion& done, uint8_t tag) override { ops.push_back({'s', 0, &done, tag, 0}); }
  void open(const char*, int, unsigned, FileCompletion& done, uint8_t tag) override {
    ops.push_back({'o', 0, &done, tag, 0});
  }
  void close(int, FileCompletion& done, uint8_t tag) override { ops.push_back({'c', 0, &done, tag, 0}); }
  void rename(const char*, const char*, FileCompletion&, uint8_t) override {}
  void unlink(const char*, FileCompletion&, uint8_t) override {}
  void add_loop_hook(LoopHook& h) override { hooks.push_back(&h); }
  void remove_loop_hook(LoopHook& h) override { std::erase(hooks, &h); }

  // One loop iteration's end: every hook in the order they were added.
  void turn() {
    for (size_t i = 0; i < hooks.size(); ++i) hooks[i]->before_wait();
  }
  char next() const { return ops.empty() ? '-' : ops.front().kind; }
  void complete(int result) {
    const Op op = ops.front();
    ops.pop_front();
    op.done->on_file_complete(op.tag, result);
  }
  // The oldest operation, a write, lands whole.
  void complete_write() { complete(static_cast<int>(ops.front().length)); }
};

}  // namespace runtime
