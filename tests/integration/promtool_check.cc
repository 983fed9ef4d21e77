#include "tests/integration/promtool_check.h"

#include "tests/integration/test_catalog.h"
#include "tests/support/command_run.h"

namespace integration {

PromtoolRun promtool_check(const std::string& page) {
  const TempFile file("metrics.txt", page);
  const test_support::CommandRun run =
      test_support::run_command("promtool check metrics < '" + file.path() + "' 2>&1");
  return {run.status, run.out};
}

}  // namespace integration
