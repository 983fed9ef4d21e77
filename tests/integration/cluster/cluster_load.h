#pragma once
// Load on a cluster of decisiond nodes while a test breaks the Redis Cluster under it:
// background threads decide for many users on every node and call every impression URL a
// decision returns on the next node, as a balancer would spread them, and keep what each
// call was answered; then the impressions acknowledged (204) are checked against the
// nodes' event logs by identity (docs/events.md: the `token` member of an impression line).
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/tracking_flow.h"

namespace integration {

// An impression URL called once and answered 204.
struct AckedImpression {
  std::string user;
  std::string ad_id;      // "ad_<id>"
  std::string url_token;  // the t= of the URL
  int64_t acked_ms = 0;   // Unix milliseconds when the 204 came back
};

struct LoadTally {
  size_t decisions = 0;
  size_t decisions_failed = 0;  // any status but 200
  size_t tracking_calls = 0;
  size_t tracking_failed = 0;   // any status but 204 (302 too for a click)
  size_t clicks = 0;
  std::string first_failure;
  std::vector<AckedImpression> acked;
};

class ClusterLoad {
 public:
  // Starts threads_per_node threads per node; each loops over its share of users. With
  // clicks, each creative's click URL is called as well, on the node after the impression's.
  ClusterLoad(ClusterNodes& nodes, std::vector<std::string> users, int threads_per_node, bool clicks = false);
  ClusterLoad(const ClusterLoad&) = delete;
  ClusterLoad& operator=(const ClusterLoad&) = delete;
  ~ClusterLoad();
  // Joins the threads; what they did so far.
  LoadTally stop();
  size_t decisions_so_far() const { return decisions_.load(); }

 private:
  void run(size_t thread, size_t thread_count);

  ClusterNodes& nodes_;
  const std::vector<std::string> users_;
  const bool clicks_;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> decisions_{0};
  std::mutex mutex_;
  LoadTally tally_;
  std::vector<std::thread> threads_;
};

// "<prefix>-<i>" for i in 0..count-1.
std::vector<std::string> numbered_users(std::string_view prefix, int count);
// Unix milliseconds now.
int64_t unix_now_ms();
// Lowercase, 16 digits: how the event log and the key names write 64-bit ids.
std::string hex16(uint64_t value);
// The user's hash in the cap store: dcd:{u:<caps::user_key(user), 16 hex>}.
std::string user_hash_key(std::string_view user);
// The key of an impression counted for a user: dcd:{u:K}:i:<identity>.
std::string user_impression_key(std::string_view user, std::string_view identity_hex);

// Impression identities (tracking/dedup/impression_key.h) of URL tokens, opened with the
// keys.json every node of the cluster holds.
class ImpressionIdentities {
 public:
  explicit ImpressionIdentities(const std::string& state_dir);
  // 16 hex, or empty when the token does not open.
  std::string of(std::string_view url_token);

 private:
  struct Codec;
  std::shared_ptr<Codec> codec_;
};

// Lines counted per identity: impressions not duplicate and not store "unapplied"
// (docs/events.md "Counting impressions").
std::map<std::string, size_t> counted_by_identity(const std::vector<LogLine>& lines);

// Every acknowledged identity counted exactly once across lines; a failure lists the first
// offenders with all their lines.
::testing::AssertionResult EveryAcknowledgedImpressionCountedOnce(const std::vector<std::string>& acked_identities,
                                                                 const std::vector<LogLine>& lines);

// Sum of metric over every node's /metrics.
double sum_over_nodes(ClusterNodes& nodes, std::string_view metric);
// Until every node's reapply backlog is empty (polled for up to 60 s), then one flush.
bool wait_for_empty_backlogs(ClusterNodes& nodes);

}  // namespace integration
