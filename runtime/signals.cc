#include "runtime/signals.h"

#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/log/logger.h"

namespace runtime {

namespace {
sigset_t handled_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  return set;
}
}  // namespace

void block_process_signals() {
  std::signal(SIGPIPE, SIG_IGN);
  const sigset_t set = handled_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

ProcessSignal wait_for_signal() {
  const sigset_t set = handled_set();
  for (;;) {
    const int signal = sigwaitinfo(&set, nullptr);
    if (signal == SIGHUP) return ProcessSignal::kReload;
    if (signal == SIGTERM || signal == SIGINT) return ProcessSignal::kTerminate;
    // EINTR from a stop/continue: wait again.
  }
}

SignalFd::SignalFd() {
  const sigset_t set = handled_set();
  fd_ = ::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd_ < 0) {
    constexpr log::Logger kLog("signals");
    kLog.error_then_abort("signalfd: %s", std::strerror(errno));
  }
}

SignalFd::~SignalFd() { ::close(fd_); }

std::optional<ProcessSignal> SignalFd::read() {
  signalfd_siginfo info;
  while (::read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
    if (info.ssi_signo == SIGHUP) return ProcessSignal::kReload;
    if (info.ssi_signo == SIGTERM || info.ssi_signo == SIGINT) return ProcessSignal::kTerminate;
  }
  return std::nullopt;
}

}  // namespace runtime
