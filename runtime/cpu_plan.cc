#include "runtime/cpu_plan.h"

#include <cstddef>

#include "absl/strings/str_cat.h"

namespace runtime {

CpuPlan plan_cpus(const std::vector<int>& allowed, uint32_t cores, bool pin) {
  CpuPlan plan;
  if (!pin || cores > allowed.size()) return plan;
  plan.reactors.assign(allowed.begin(), allowed.begin() + cores);
  plan.others.assign(allowed.begin() + cores, allowed.end());
  return plan;
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t end = i;
    while (end + 1 < cpus.size() && cpus[end + 1] == cpus[end] + 1) ++end;
    if (!out.empty()) out += ',';
    absl::StrAppend(&out, cpus[i]);
    if (end > i) absl::StrAppend(&out, "-", cpus[end]);
    i = end + 1;
  }
  return out;
}

}  // namespace runtime
