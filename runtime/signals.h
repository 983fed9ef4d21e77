#pragma once
// Process signals are taken synchronously by the main thread: they are blocked before
// any reactor thread starts (threads inherit the mask), so no handler ever runs inside a
// reactor and no async-signal-safety rules leak into the code.
#include <csignal>
#include <optional>

namespace runtime {

enum class ProcessSignal { kTerminate, kReload };

// Blocks SIGTERM, SIGINT and SIGHUP (taken by wait_for_signal or a SignalFd) and
// ignores SIGPIPE.
void block_process_signals();
ProcessSignal wait_for_signal();

// The blocked signals as a file descriptor, for a thread that waits on them beside other
// descriptors (poll). Readable when a signal is pending.
class SignalFd {
 public:
  SignalFd();  // ends the process if signalfd(2) fails: nothing could stop it cleanly then
  ~SignalFd();
  SignalFd(const SignalFd&) = delete;
  SignalFd& operator=(const SignalFd&) = delete;

  int fd() const { return fd_; }
  // The pending signal, or nullopt when none is (a spurious wake-up).
  std::optional<ProcessSignal> read();

 private:
  int fd_ = -1;
};

}  // namespace runtime
