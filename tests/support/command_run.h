#pragma once
// A command line run through the shell, as an operator would type it: what tests of the
// tools (decisiond-keys, decisiond-events, ...) run and read.
#include <string>

namespace test_support {

struct CommandRun {
  int status = -1;  // the exit status; -1 when it did not exit normally (or could not start)
  std::string out;  // its standard output (redirect stderr in the command line to keep it)
};

CommandRun run_command(const std::string& command_line);

}  // namespace test_support
