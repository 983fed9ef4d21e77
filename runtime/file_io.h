#pragma once
// File operations through the core's own ring, for writers that must never block the core
// (the event log, snapshots): the caller submits, the ring does the system call, and the
// result comes back as a completion on the same core. Code above the runtime sees this
// interface only, never io_uring.
#include <cstddef>
#include <cstdint>

namespace runtime {

class FileCompletion {
 public:
  virtual ~FileCompletion() = default;
  // result: what the system call returned (bytes, a descriptor, 0), or -errno. tag: the
  // caller's own label of the operation.
  virtual void on_file_complete(uint8_t tag, int result) = 0;
};

// Called once per loop iteration, just before the io_uring_enter that submits what the
// iteration queued (its replies' sends among it) and waits for completions: where a writer
// hands everything appended during the iteration to a write, so both leave together.
class LoopHook {
 public:
  virtual ~LoopHook() = default;
  virtual void before_wait() = 0;
};

class FileIo {
 public:
  virtual ~FileIo() = default;
  // Buffers and paths must stay valid and unchanged until the completion.
  virtual void write(int fd, const char* data, size_t length, uint64_t offset, FileCompletion& done, uint8_t tag) = 0;
  virtual void sync_data(int fd, FileCompletion& done, uint8_t tag) = 0;  // fdatasync
  virtual void open(const char* path, int flags, unsigned mode, FileCompletion& done, uint8_t tag) = 0;
  virtual void close(int fd, FileCompletion& done, uint8_t tag) = 0;
  virtual void rename(const char* from, const char* to, FileCompletion& done, uint8_t tag) = 0;
  virtual void unlink(const char* path, FileCompletion& done, uint8_t tag) = 0;
  virtual void add_loop_hook(LoopHook& hook) = 0;
  virtual void remove_loop_hook(LoopHook& hook) = 0;
};

}  // namespace runtime
