#pragma once
// Resident memory of the decisiond this test started. ServerProcess keeps its pid to
// itself, so it is found in /proc: the running child of this process whose executable is
// DECISIOND_BINARY.
#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace integration::updates {

// nullopt when there is no such child, or more than one.
std::optional<pid_t> running_server_pid();
// VmRSS of /proc/<pid>/status, in bytes; nullopt when unreadable.
std::optional<uint64_t> resident_bytes(pid_t pid);

}  // namespace integration::updates
