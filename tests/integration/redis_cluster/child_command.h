#pragma once
// The child processes of the test fixtures (Redis, NATS): a server in the background, tied
// to the test process so it dies with it, and a client tool run to its end under a deadline.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace integration {

struct CommandRun {
  int exit_code = -1;  // -1 when killed by a signal (also at the deadline)
  bool timed_out = false;
  std::string out;
  std::string err;
};

// The full path of a program found in PATH, or empty.
std::string find_program(const std::string& name);

// Runs argv (argv[0] a full path) to its end with stdin from /dev/null; killed at the
// deadline so a hung client cannot hang the test.
CommandRun run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

// Starts argv (argv[0] a full path) in a process group of its own, stdout and stderr
// appended to output_path. The child gets SIGKILL when the test process dies, however it
// dies. -1 when fork fails.
pid_t start_background(const std::vector<std::string>& argv, const std::string& output_path);

// Reaps pid if it exits within timeout.
bool reap_within(pid_t pid, std::chrono::milliseconds timeout);

// Sends signal, one that ends a process, to the group of pid (from start_background): true
// once pid exited within grace and was reaped, and whatever it forked got SIGKILL.
bool end_process_group(pid_t pid, int signal, std::chrono::milliseconds grace);

// SIGTERM to each group, then SIGKILL to whatever is still running at the deadline; every
// pid is reaped on return.
void stop_process_groups(const std::vector<pid_t>& pids, std::chrono::milliseconds grace);

}  // namespace integration
