#pragma once
// `promtool check metrics` (Debian package prometheus, installed by tools/install-deps) on
// a /metrics page: the exposition format and Prometheus' naming rules.
#include <string>

namespace integration {

struct PromtoolRun {
  int exit_code = -1;  // 127: promtool not found
  std::string output;  // stdout and stderr: empty when it has nothing to say
};

PromtoolRun promtool_check(const std::string& page);

}  // namespace integration
