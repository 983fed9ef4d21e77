#pragma once
// Which CPUs the reactors get and which everything else gets (docs/operations.md "What
// runs beside the reactors"). Pinned, reactor i runs on the i-th allowed CPU, and every
// other thread of the process and io_uring's workers (writes the kernel cannot finish
// inline, every fdatasync, opens and closes of files) run on the allowed CPUs no reactor
// holds, so that no work of theirs takes time from a reserved core. When the reactors hold
// every allowed CPU nothing is restricted: the other work then shares the reactors' CPUs,
// as it does unpinned.
#include <cstdint>
#include <string>
#include <vector>

namespace runtime {

struct CpuPlan {
  std::vector<int> reactors;  // reactor i on reactors[i]; empty: not pinned
  std::vector<int> others;    // every other thread and io_uring's workers; empty: unrestricted
};

// allowed: the process's CPUs in ascending order (allowed_cpus()). Needs cores <= allowed
// when pin is set (the flags check it).
CpuPlan plan_cpus(const std::vector<int>& allowed, uint32_t cores, bool pin);

// "0-3,6": a CPU list as taskset and /proc/<pid>/status print it.
std::string cpu_list(const std::vector<int>& cpus);

}  // namespace runtime
