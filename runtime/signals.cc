#include "runtime/signals.h"

#include <pthread.h>

#include <cerrno>

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

}  // namespace runtime
