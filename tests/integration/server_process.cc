#include "tests/integration/server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/reply_log.h"

#ifndef DECISIOND_BINARY
#error "DECISIOND_BINARY must name the decisiond binary (set by tests/integration/CMakeLists.txt)"
#endif

extern char** environ;

namespace integration {

namespace {
std::string make_state_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "decisiond-integ-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return {};
  return pattern;
}

// The test runner's own DECISIOND_* variables must not leak into a test's server.
std::vector<std::string> child_environment(const EnvVars& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "DECISIOND_", 10) != 0) env.emplace_back(*e);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

ExitStatus from_wait_status(int status) {
  ExitStatus exit;
  if (WIFEXITED(status)) exit.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  return exit;
}
}  // namespace

std::string ExitStatus::describe() const {
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(code);
}

std::vector<std::string> standard_flags(std::vector<std::string> extra) {
  // No overload shedding unless a test asks for it (later flags win): shedding measures what
  // a request waited since it reached the socket, and on a loaded 2-CPU test machine a
  // server not scheduled for 20 ms is ordinary, and would answer a test's request 503.
  std::vector<std::string> flags = {"--listen=127.0.0.1:0", "--admin-listen=127.0.0.1:0", "--cores=2",
                                    "--shed-lag=0"};
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

ServerProcess::ServerProcess(std::vector<std::string> args, EnvVars env) {
  state_dir_ = make_state_dir();
  std::vector<std::string> argv_strings = {DECISIOND_BINARY, "--state-dir=" + state_dir_};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = child_environment(env);
  std::vector<char*> argv = pointers(argv_strings);
  std::vector<char*> envp = pointers(env_strings);

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    start_error_ = std::string("pipe2: ") + std::strerror(errno);
    return;
  }
  pid_ = ::fork();
  if (pid_ == 0) {
    // Only async-signal-safe calls from here to exec.
    ::dup2(pipe_fds[1], STDERR_FILENO);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDOUT_FILENO);
    ::execve(argv[0], argv.data(), envp.data());
    const char message[] = "integration harness: execve failed\n";
    [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, message, sizeof(message) - 1);
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  stderr_fd_ = pipe_fds[0];
  if (pid_ < 0) {
    start_error_ = std::string("fork: ") + std::strerror(errno);
    return;
  }
  read_stderr(std::chrono::steady_clock::now() + kStartTimeout, /*until_serving=*/true);
  serving_ = parse_serving_line();
  if (!serving_) {
    start_error_ = "no serving line within " + std::to_string(kStartTimeout.count()) + " ms; stderr: " + stderr_;
  }
}

namespace {
// What ASan, LSan and UBSan print when they report; a report after a test's last request
// is a bug no assertion of the test saw.
constexpr const char* kSanitizerReports[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error: ",
                                             "WARNING: ThreadSanitizer"};

std::string tail_of(const std::string& text, size_t bytes = 4000) {
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}
}  // namespace

// A server that ended on its own before the test let it go, or one whose stderr holds a
// sanitizer's report, fails the test: both would otherwise go unseen once the test's last
// request was answered.
ServerProcess::~ServerProcess() {
  if (pid_ > 0 && !exit_) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_ = from_wait_status(status);
      if (!signalled_) {
        read_stderr(std::chrono::steady_clock::now() + std::chrono::milliseconds(500), false);
        ADD_FAILURE() << "decisiond ended before the test did (" << exit_->describe() << "); its stderr:\n"
                      << tail_of(stderr_);
      }
    } else {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  read_stderr(std::chrono::steady_clock::now() + std::chrono::milliseconds(500), false);
  for (const char* report : kSanitizerReports) {
    const size_t at = stderr_.find(report);
    if (at != std::string::npos) {
      ADD_FAILURE() << "decisiond's stderr holds a sanitizer report:\n" << tail_of(stderr_.substr(at > 200 ? at - 200 : 0));
      break;
    }
  }
  if (stderr_fd_ >= 0) ::close(stderr_fd_);
  if (!state_dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(state_dir_, ignored);
  }
}

void ServerProcess::read_stderr(std::chrono::steady_clock::time_point deadline, bool until_serving) {
  while (stderr_fd_ >= 0) {
    if (until_serving && stderr_.find(" msg=\"serving ") != std::string::npos &&
        stderr_.find('\n', stderr_.find(" msg=\"serving ")) != std::string::npos) {
      return;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{stderr_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, std::max<int>(0, static_cast<int>(left.count())));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;
    char chunk[4096];
    const ssize_t n = ::read(stderr_fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // every writer is gone: the process has exited
      ::close(stderr_fd_);
      stderr_fd_ = -1;
      return;
    }
    stderr_.append(chunk, static_cast<size_t>(n));
  }
}

bool ServerProcess::parse_serving_line() {
  // The serving log line's message (docs/operations.md "Logs"): public=none with
  // --listen=none; " tls=host:port" at the end with --tls-listen.
  static const std::regex kServing(
      R"( msg="serving public=(none|([0-9.]+):([0-9]+)) admin=([0-9.]+):([0-9]+) cores=[0-9]+ io_uring=\S+([^\n]*)\n)");
  static const std::regex kTls(R"( tls=([0-9.]+):([0-9]+))");
  std::smatch match;
  if (!std::regex_search(stderr_, match, kServing)) return false;
  const bool plain = match[1] != "none";
  if (plain) {
    public_host_ = match[2];
    public_port_ = static_cast<uint16_t>(std::stoi(match[3]));
  }
  admin_host_ = match[4];
  admin_port_ = static_cast<uint16_t>(std::stoi(match[5]));
  const std::string rest = match[6];
  std::smatch tls;
  if (std::regex_search(rest, tls, kTls)) {
    tls_host_ = tls[1];
    tls_port_ = static_cast<uint16_t>(std::stoi(tls[2]));
  }
  reply_log::note_listeners(public_port_, admin_port_, tls_port_);
  return (public_port_ != 0 || tls_port_ != 0) && admin_port_ != 0;
}

std::string ServerProcess::admin_url(const std::string& path) const {
  return "http://" + admin_host_ + ":" + std::to_string(admin_port_) + path;
}

std::string ServerProcess::tls_url(const std::string& path) const {
  return "https://" + tls_host_ + ":" + std::to_string(tls_port_) + path;
}

std::string ServerProcess::public_url(const std::string& path) const {
  return "http://" + public_host_ + ":" + std::to_string(public_port_) + path;
}

bool ServerProcess::stop_all_threads() {
  send_signal(SIGSTOP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  const std::filesystem::path tasks = "/proc/" + std::to_string(pid_) + "/task";
  while (std::chrono::steady_clock::now() < deadline) {
    bool all_stopped = true;
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
      std::ifstream stat(task.path() / "stat");
      std::string line;
      std::getline(stat, line);
      // The state follows the command's closing parenthesis: T when stopped.
      const size_t paren = line.rfind(')');
      if (paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] != 'T') all_stopped = false;
    }
    if (!error && all_stopped) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

void ServerProcess::send_signal(int signal) {
  if (pid_ <= 0 || exit_) return;
  if (signal != SIGSTOP && signal != SIGCONT && signal != 0) signalled_ = true;
  ::kill(pid_, signal);
}

std::optional<ExitStatus> ServerProcess::wait_for_exit(std::chrono::milliseconds timeout) {
  if (exit_ || pid_ <= 0) return exit_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_ = from_wait_status(status);
      // Whatever it said on the way out.
      read_stderr(std::chrono::steady_clock::now() + std::chrono::milliseconds(500), false);
      return exit_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    // Polling interval only; the bound that matters is the caller's timeout.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

const std::string& ServerProcess::stderr_text() {
  read_stderr(std::chrono::steady_clock::now(), false);
  return stderr_;
}

FinishedRun run_to_exit(std::vector<std::string> args, EnvVars env, std::chrono::milliseconds timeout) {
  ServerProcess process(std::move(args), std::move(env));
  FinishedRun run;
  run.exit = process.wait_for_exit(timeout);
  run.stderr_text = process.stderr_text();
  return run;
}

}  // namespace integration
