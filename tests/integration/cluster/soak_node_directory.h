#pragma once
// Where the soak's clients find the nodes while the fault thread kills and restarts them:
// each node's public address (a restarted node listens on a new port) and whether it is
// up, behind one lock, and a generation that moves whenever the node is taken down. A
// request that failed at the socket is "unanswered at a fault" when its node was down or
// taken down while it was out; any other failure is a live node that did not answer.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace integration {

class NodeDirectory {
 public:
  explicit NodeDirectory(std::vector<std::string> base_urls);

  struct Lease {
    uint32_t node = 0;
    std::string base_url;  // http://host:port
    uint64_t generation = 0;
  };
  // The wanted node if it is up, else the next one up, as a balancer that has seen it fail
  // its health check would pick; with every node down, the wanted one's last address.
  Lease pick(uint32_t wanted) const;
  // Whether the node was taken down since the lease was given.
  bool disturbed(const Lease& lease) const;

  // Before the fault thread signals a node, and once its successor serves.
  void take_down(uint32_t node);
  void bring_up(uint32_t node, std::string base_url);

 private:
  struct Entry {
    std::string base_url;
    bool up = true;
    uint64_t generation = 0;
  };
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace integration
