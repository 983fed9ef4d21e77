#include "tests/integration/redis_cluster/child_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <thread>

extern char** environ;

namespace integration {

namespace {

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// In the child, before exec: only async-signal-safe calls. PR_SET_PDEATHSIG fires when
// the thread that forked exits, which for GoogleTest is the main thread, so in practice
// when the test process dies (SIGKILL from ctest's timeout included). The getppid check
// closes the race where the parent died before prctl ran.
void tie_to_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
}

void exec_or_exit(std::vector<char*>& argv) {
  ::execve(argv[0], argv.data(), environ);
  const char message[] = "test fixture: execve failed\n";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, message, sizeof(message) - 1);
  ::_exit(127);
}

// Reads both pipes until both close or the deadline passes.
void drain(int out_fd, int err_fd, CommandRun& run, std::chrono::steady_clock::time_point deadline) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      return;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char chunk[4096];
      const ssize_t n = ::read(fds[i].fd, chunk, sizeof(chunk));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;  // the caller closes it
        continue;
      }
      sinks[i]->append(chunk, static_cast<size_t>(n));
    }
  }
}

}  // namespace

std::string find_program(const std::string& name) {
  const char* path = ::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

CommandRun run_command(const std::vector<std::string>& argv_in, std::chrono::milliseconds timeout) {
  CommandRun run;
  std::vector<std::string> argv_strings = argv_in;
  std::vector<char*> argv = pointers(argv_strings);
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return run;
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return run;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    tie_to_parent(parent);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    exec_or_exit(argv);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid > 0) drain(out_pipe[0], err_pipe[0], run, std::chrono::steady_clock::now() + timeout);
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  if (pid < 0) {
    run.err = std::string("fork: ") + std::strerror(errno);
    return run;
  }
  if (run.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!run.timed_out && WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  return run;
}

pid_t start_background(const std::vector<std::string>& argv_in, const std::string& output_path) {
  std::vector<std::string> argv_strings = argv_in;
  std::vector<char*> argv = pointers(argv_strings);
  const int out_fd = ::open(output_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    tie_to_parent(parent);
    // A group of its own, so stopping it also stops any child it forked (a replica's
    // full sync forks one) even if it dies first.
    ::setpgid(0, 0);
    const int null_fd = ::open("/dev/null", O_RDWR);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    const int sink = out_fd >= 0 ? out_fd : null_fd;
    if (sink >= 0) {
      ::dup2(sink, STDOUT_FILENO);
      ::dup2(sink, STDERR_FILENO);
    }
    exec_or_exit(argv);
  }
  // Set from both sides so a signal sent right after fork already reaches the group.
  if (pid > 0) ::setpgid(pid, pid);
  if (out_fd >= 0) ::close(out_fd);
  return pid;
}

bool reap_within(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno == ECHILD)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    // Polling interval only; the bound is the caller's timeout.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

bool end_process_group(pid_t pid, int signal, std::chrono::milliseconds grace) {
  ::kill(-pid, signal);
  ::kill(-pid, SIGCONT);  // a paused process must run to act on SIGTERM
  if (!reap_within(pid, grace)) return false;
  ::kill(-pid, SIGKILL);  // anything it forked
  return true;
}

void stop_process_groups(const std::vector<pid_t>& pids, std::chrono::milliseconds grace) {
  for (pid_t pid : pids) {
    ::kill(-pid, SIGTERM);
    ::kill(-pid, SIGCONT);  // a paused node must run to act on SIGTERM
  }
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (pid_t pid : pids) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (reap_within(pid, std::max(left, std::chrono::milliseconds(0)))) {
      ::kill(-pid, SIGKILL);  // whatever it forked and left behind
      continue;
    }
    ::kill(-pid, SIGKILL);
    reap_within(pid, std::chrono::milliseconds(5000));
  }
}

}  // namespace integration
