#pragma once
#include <vector>

#include "absl/status/status.h"

namespace runtime {

// CPUs this process may run on, in ascending order (honours taskset and cgroups).
std::vector<int> allowed_cpus();
absl::Status pin_current_thread(int cpu);
// The calling thread may run on cpus only; threads it starts afterwards inherit that.
absl::Status restrict_current_thread(const std::vector<int>& cpus);

}  // namespace runtime
