#include "runtime/cpu_affinity.h"

#include <pthread.h>
#include <sched.h>

#include "absl/strings/str_cat.h"

namespace runtime {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

absl::Status pin_current_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); rc != 0) {
    return absl::ErrnoToStatus(rc, absl::StrCat("pin to cpu ", cpu));
  }
  return absl::OkStatus();
}

cpu_set_t cpu_set_of(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  return set;
}

absl::Status restrict_current_thread(const std::vector<int>& cpus) {
  const cpu_set_t set = cpu_set_of(cpus);
  if (int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); rc != 0) {
    return absl::ErrnoToStatus(rc, "restrict to the CPUs no reactor holds");
  }
  return absl::OkStatus();
}

}  // namespace runtime
