#pragma once
#include <vector>

#include "absl/status/status.h"

namespace runtime {

// CPUs this process may run on, in ascending order (honours taskset and cgroups).
std::vector<int> allowed_cpus();
absl::Status pin_current_thread(int cpu);

}  // namespace runtime
