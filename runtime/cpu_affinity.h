#pragma once
#include <sched.h>

#include <vector>

#include "absl/status/status.h"

namespace runtime {

// CPUs this process may run on, in ascending order (honours taskset and cgroups).
std::vector<int> allowed_cpus();
absl::Status pin_current_thread(int cpu);
// The set holding exactly cpus, as sched_setaffinity and io_uring take it.
cpu_set_t cpu_set_of(const std::vector<int>& cpus);
// The calling thread may run on cpus only; threads it starts afterwards inherit that.
absl::Status restrict_current_thread(const std::vector<int>& cpus);

}  // namespace runtime
