#pragma once
// decisiond as a child process: started with fork/exec, ready once it prints its serving
// line on stderr, signalled, and reaped. A process still running when the object dies is
// killed, so a failing test never leaves a server behind.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace integration {

using EnvVars = std::vector<std::pair<std::string, std::string>>;

// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kStartTimeout{5000};
inline constexpr std::chrono::milliseconds kExitTimeout{5000};
// How long a test waits for a state the server will reach on its own (a line logged, a
// snapshot, a metric moved, readiness): what they wait for takes a flush interval or a few
// (10 ms to 1 s), so this is reached only when something is wrong, on a loaded machine too.
inline constexpr std::chrono::milliseconds kStateTimeout{20000};

struct ExitStatus {
  int code = -1;   // exit status, or -1 when killed by a signal
  int signal = 0;  // the signal that killed it, or 0
  std::string describe() const;
};

// Loopback listeners on free ports, two cores, and the given flags after them (later
// flags win, so a test may override any of these).
std::vector<std::string> standard_flags(std::vector<std::string> extra = {});

class ServerProcess {
 public:
  // Starts the binary with exactly these arguments (plus a private --state-dir first)
  // and an environment without any inherited DECISIOND_* variable, plus env.
  explicit ServerProcess(std::vector<std::string> args, EnvVars env = {});
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess();

  // Whether the serving line arrived within kStartTimeout; if not, why not.
  bool serving() const { return serving_; }
  const std::string& start_error() const { return start_error_; }

  const std::string& public_host() const { return public_host_; }
  uint16_t public_port() const { return public_port_; }
  const std::string& admin_host() const { return admin_host_; }
  uint16_t admin_port() const { return admin_port_; }
  std::string admin_url(const std::string& path) const;
  std::string public_url(const std::string& path) const;
  // The TLS listener (--tls-listen), 0 / empty without one.
  uint16_t tls_port() const { return tls_port_; }
  std::string tls_url(const std::string& path) const;

  // The server's process id (for /proc reads and signals of its own), -1 if it never started.
  pid_t pid() const { return pid_; }
  // Sends signal; one that may end the process (anything but SIGSTOP and SIGCONT) makes
  // its exit expected, so the destructor does not report it.
  void send_signal(int signal);
  // SIGSTOP, then waits until every thread of the process has stopped (a stop lands on each
  // thread when it next enters the kernel, a moment after the signal is sent): from then on,
  // what a client sends waits in the kernel. False if that did not happen within 5 s.
  bool stop_all_threads();
  // nullopt while it is still running at the deadline.
  std::optional<ExitStatus> wait_for_exit(std::chrono::milliseconds timeout = kExitTimeout);
  // Everything the process wrote to stderr so far.
  const std::string& stderr_text();

 private:
  void read_stderr(std::chrono::steady_clock::time_point deadline, bool until_serving);
  bool parse_serving_line();

  pid_t pid_ = -1;
  int stderr_fd_ = -1;
  std::string state_dir_;
  std::string stderr_;
  bool serving_ = false;
  std::string start_error_;
  std::optional<ExitStatus> exit_;
  bool signalled_ = false;  // a signal that may end it was sent: its exit is expected
  std::string public_host_;
  uint16_t public_port_ = 0;
  std::string admin_host_;
  uint16_t admin_port_ = 0;
  std::string tls_host_;
  uint16_t tls_port_ = 0;
};

// Runs the binary to its end, for the cases where it must refuse to start.
struct FinishedRun {
  std::optional<ExitStatus> exit;  // nullopt: still running at the deadline (then killed)
  std::string stderr_text;
};
FinishedRun run_to_exit(std::vector<std::string> args, EnvVars env = {},
                        std::chrono::milliseconds timeout = kExitTimeout);

}  // namespace integration
