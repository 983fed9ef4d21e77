#pragma once
// The process's limit on open file descriptors (RLIMIT_NOFILE). Every connection is a
// descriptor, and distributions start services with a soft limit of 1,024 while the hard
// limit is far higher (systemd: 524,288): without raising it, a core at its default
// --max-connections-per-core (10,000) would fail accepts with EMFILE long before.
#include <cstdint>

namespace runtime {

struct OpenFilesLimit {
  uint64_t soft_before = 0;  // the soft limit the process started with
  uint64_t soft = 0;         // the soft limit now
  uint64_t hard = 0;
  int error = 0;             // errno of a getrlimit/setrlimit that failed, else 0
};

// Raises the soft limit to the hard limit (an unprivileged process may go that far, no
// further), and says what it got. RLIM_INFINITY reads as UINT64_MAX.
OpenFilesLimit raise_open_files_limit();

}  // namespace runtime
