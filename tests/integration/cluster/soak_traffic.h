#pragma once
// The soak's clients: threads that decide for users of their own pools on any node and call
// the impression URLs of what was served on any node, some once, some on several nodes at
// the same time, some twice in a row on one node (a page reloaded while the store may not
// answer). Every call is recorded as the client saw it: what it asked, of which node, when,
// and what came back, or that nothing came back and whether its node was being faulted.
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/cluster/soak_node_directory.h"

namespace integration {

struct SoakCall {
  uint32_t node = 0;
  int64_t sent_ms = 0;      // Unix milliseconds
  int64_t answered_ms = 0;  // when the reply, or the failure, came back
  long status = 0;          // 0: no HTTP reply (refused, reset, timed out)
  bool at_fault = false;    // its node was down, or taken down while the call was out
  std::string error;        // curl's reason when status is 0
};

struct ServedAd {
  uint64_t ad = 0;
  std::string identity;  // of its impression URL's token: 16 hex (tracking/dedup/impression_key.h)
};

struct SoakDecision {
  std::string user;
  SoakCall call;
  std::vector<ServedAd> served;  // with a 200
};

struct SoakImpressionCall {
  size_t decision = 0;  // index in SoakRecord::decisions
  size_t served = 0;    // index in its served
  SoakCall call;
};

struct SoakRecord {
  std::vector<SoakDecision> decisions;
  std::vector<SoakImpressionCall> impressions;
};

class SoakTraffic {
 public:
  // keys_state_dir: a node's state directory, whose keys.json opens every node's tokens.
  SoakTraffic(NodeDirectory& directory, uint32_t node_count, std::string keys_state_dir, uint64_t seed,
              uint32_t threads);
  SoakTraffic(const SoakTraffic&) = delete;
  SoakTraffic& operator=(const SoakTraffic&) = delete;
  ~SoakTraffic();
  // Joins the threads; everything they asked and were answered.
  SoakRecord stop();
  size_t decisions_so_far() const { return decisions_.load(); }

 private:
  void run(uint32_t thread);

  NodeDirectory& directory_;
  const std::string keys_state_dir_;
  const uint64_t seed_;
  const uint32_t node_count_;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> decisions_{0};
  std::vector<SoakRecord> records_;  // one per thread, written by it alone
  std::vector<std::thread> threads_;
};

}  // namespace integration
