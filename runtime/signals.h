#pragma once
// Process signals are taken synchronously by the main thread: they are blocked before
// any reactor thread starts (threads inherit the mask), so no handler ever runs inside a
// reactor and no async-signal-safety rules leak into the code.
#include <csignal>

namespace runtime {

enum class ProcessSignal { kTerminate, kReload };

// Blocks SIGTERM, SIGINT and SIGHUP (taken by wait_for_signal) and ignores SIGPIPE.
void block_process_signals();
ProcessSignal wait_for_signal();

}  // namespace runtime
