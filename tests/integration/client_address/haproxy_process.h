#pragma once
// A real HAProxy (Debian's haproxy) in front of decisiond, for the client-address tests:
// started by the test on loopback and free ports, its configuration in a temporary folder,
// stopped (its process group) when the object goes. Like the Redis and NATS fixtures.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace integration {

class HaproxyProcess {
 public:
  // config: the "frontend"/"backend"/"listen" sections; each "{port N}" in it becomes the
  // Nth free loopback port (N from 0), which port(N) then tells. global and defaults are
  // written here (no daemon, no stats, short timeouts).
  HaproxyProcess(const std::string& config, size_t ports);
  HaproxyProcess(const HaproxyProcess&) = delete;
  HaproxyProcess& operator=(const HaproxyProcess&) = delete;
  ~HaproxyProcess();

  // Whether it listens on every port; if not, why not (its output included).
  bool ready() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  uint16_t port(size_t n) const { return ports_.at(n); }

 private:
  std::string dir_;
  std::vector<uint16_t> ports_;
  pid_t pid_ = -1;
  std::string error_;
};

}  // namespace integration
