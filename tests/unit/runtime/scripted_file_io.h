#pragma once
// A FileIo whose every operation waits in `ops` until the test completes it (in any order),
// with what each write put in its file kept in `files`, and whose loop hooks run when the
// test says a loop turn ends: for the writers built on FileIo (runtime/line_log.h) and what
// waits on them (runtime/answer_gate.h), step by step.
#include <algorithm>
#include <cstddef>
#include <deque>
#include <map>
#include <string>
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
    int fd = -1;
    uint64_t offset = 0;
    std::string data;  // a write's bytes, as submitted
  };
  std::deque<Op> ops;
  std::map<int, std::string> files;
  std::vector<LoopHook*> hooks;

  void write(int fd, const char* data, size_t length, uint64_t offset, FileCompletion& done, uint8_t tag) override {
    ops.push_back({'w', length, &done, tag, fd, offset, std::string(data, length)});
  }
  void sync_data(int fd, FileCompletion& done, uint8_t tag) override { ops.push_back({'s', 0, &done, tag, fd, 0, {}}); }
  void open(const char*, int, unsigned, FileCompletion& done, uint8_t tag) override {
    ops.push_back({'o', 0, &done, tag, -1, 0, {}});
  }
  void close(int fd, FileCompletion& done, uint8_t tag) override { ops.push_back({'c', 0, &done, tag, fd, 0, {}}); }
  void rename(const char*, const char*, FileCompletion&, uint8_t) override {}
  void unlink(const char*, FileCompletion&, uint8_t) override {}
  void add_loop_hook(LoopHook& h) override { hooks.push_back(&h); }
  void remove_loop_hook(LoopHook& h) override { std::erase(hooks, &h); }

  // One loop iteration's end: every hook in the order they were added.
  void turn() {
    for (size_t i = 0; i < hooks.size(); ++i) hooks[i]->before_wait();
  }
  char next() const { return ops.empty() ? '-' : ops.front().kind; }
  size_t count(char kind) const {
    size_t n = 0;
    for (const Op& op : ops) n += op.kind == kind ? 1 : 0;
    return n;
  }
  // The i-th operation waiting (0: the oldest), delivered with result.
  void complete_at(size_t i, int result) {
    const Op op = ops[i];
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i));
    if (op.kind == 'w' && result > 0) {
      std::string& file = files[op.fd];
      if (file.size() < op.offset + static_cast<size_t>(result)) file.resize(op.offset + static_cast<size_t>(result));
      file.replace(op.offset, static_cast<size_t>(result), op.data, 0, static_cast<size_t>(result));
    }
    op.done->on_file_complete(op.tag, result);
  }
  void complete(int result) { complete_at(0, result); }
  // The oldest operation, a write, lands whole.
  void complete_write() { complete(static_cast<int>(ops.front().length)); }
  void complete_write_at(size_t i) { complete_at(i, static_cast<int>(ops[i].length)); }
  // Delivers everything, writes whole and everything else with 0.
  void complete_all() {
    while (!ops.empty()) next() == 'w' ? complete_write() : complete(0);
  }
};

}  // namespace runtime
