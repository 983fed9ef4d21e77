#include "tests/integration/promtool_check.h"

#include <sys/wait.h>

#include <cstdio>

#include "tests/integration/test_catalog.h"

namespace integration {

PromtoolRun promtool_check(const std::string& page) {
  const TempFile file("metrics.txt", page);
  PromtoolRun run;
  FILE* pipe = ::popen(("promtool check metrics < '" + file.path() + "' 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) run.output.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace integration
