#pragma once
// Resident memory of a process this test started (ServerProcess::pid()).
#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace integration::updates {

// VmRSS of /proc/<pid>/status, in bytes; nullopt when unreadable.
std::optional<uint64_t> resident_bytes(pid_t pid);

}  // namespace integration::updates
