#include "tests/integration/cluster/cluster_load.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <set>

#include "caps/user_key.h"
#include "tests/integration/metrics_scrape.h"
#include "tracking/dedup/impression_key.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"

namespace integration {

ClusterLoad::ClusterLoad(ClusterNodes& nodes, std::vector<std::string> users, int threads_per_node, bool clicks)
    : nodes_(nodes), users_(std::move(users)), clicks_(clicks) {
  const size_t count = nodes_.size() * static_cast<size_t>(threads_per_node);
  for (size_t t = 0; t < count; ++t) threads_.emplace_back([this, t, count] { run(t, count); });
}

ClusterLoad::~ClusterLoad() { stop(); }

LoadTally ClusterLoad::stop() {
  stopping_ = true;
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  std::lock_guard lock(mutex_);
  return tally_;
}

void ClusterLoad::run(size_t thread, size_t thread_count) {
  // Each user belongs to one thread, so one user's decisions never race each other; the
  // user is decided on one node and its impressions called on the next.
  std::vector<std::string> mine;
  for (size_t u = thread; u < users_.size(); u += thread_count) mine.push_back(users_[u]);
  const size_t node = thread % nodes_.size();
  for (size_t round = 0; !stopping_; ++round) {
    for (const std::string& user : mine) {
      if (stopping_) break;
      const CurlReply reply = decide(nodes_.node(node + round), user, 3);
      ++decisions_;
      std::vector<AckedImpression> acked;
      size_t calls = 0, failed = 0, clicks = 0;
      std::string failure;
      if (reply.status != 200) {
        failure = "decision for " + user + ": " + std::to_string(reply.status) + " " + reply.body;
      } else {
        for (const CreativeTokens& c : tokens_of(reply.body)) {
          const CurlReply called = call_tracking(nodes_.node(node + round + 1), c.impression);
          ++calls;
          if (called.status == 204) {
            acked.push_back({user, c.ad_id, c.impression, unix_now_ms()});
          } else {
            ++failed;
            if (failure.empty()) failure = "impression of " + c.ad_id + ": " + std::to_string(called.status);
          }
          if (!clicks_ || c.click.empty()) continue;
          const CurlReply clicked = call_tracking(nodes_.node(node + round + 2), c.click);
          ++calls;
          ++clicks;
          if (clicked.status != 302 && clicked.status != 204) {
            ++failed;
            if (failure.empty()) failure = "click of " + c.ad_id + ": " + std::to_string(clicked.status);
          }
        }
      }
      std::lock_guard lock(mutex_);
      ++tally_.decisions;
      tally_.decisions_failed += reply.status == 200 ? 0 : 1;
      tally_.tracking_calls += calls;
      tally_.tracking_failed += failed;
      tally_.clicks += clicks;
      if (tally_.first_failure.empty()) tally_.first_failure = failure;
      for (AckedImpression& a : acked) tally_.acked.push_back(std::move(a));
    }
  }
}

std::vector<std::string> numbered_users(std::string_view prefix, int count) {
  std::vector<std::string> users;
  for (int i = 0; i < count; ++i) users.push_back(std::string(prefix) + "-" + std::to_string(i));
  return users;
}

int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string hex16(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, value);
  return text;
}

std::string user_hash_key(std::string_view user) { return "dcd:{u:" + hex16(caps::user_key(user)) + "}"; }

std::string user_impression_key(std::string_view user, std::string_view identity_hex) {
  return user_hash_key(user) + ":i:" + std::string(identity_hex);
}

struct ImpressionIdentities::Codec {
  explicit Codec(tracking::KeyRing ring) : keys(std::move(ring)), codec(keys) {}
  tracking::KeyRing keys;
  tracking::TokenCodec codec;
};

ImpressionIdentities::ImpressionIdentities(const std::string& state_dir) {
  absl::StatusOr<tracking::KeyRing> ring = tracking::KeyRing::load(state_dir);
  if (!ring.ok()) {
    ADD_FAILURE() << "keys.json of " << state_dir << ": " << ring.status();
    return;
  }
  codec_ = std::make_shared<Codec>(std::move(*ring));
}

std::string ImpressionIdentities::of(std::string_view url_token) {
  if (!codec_) return {};
  std::string storage;
  const tracking::DecodedToken decoded = codec_->codec.decode(url_token, unix_now_ms() / 1000, storage);
  if (!decoded.ok()) return {};
  return hex16(tracking::dedup::impression_identity(decoded.event));
}

std::map<std::string, size_t> counted_by_identity(const std::vector<LogLine>& lines) {
  std::map<std::string, size_t> counted;
  for (const LogLine& l : lines) {
    if (l.kind == "impression" && !l.duplicate && l.store != "unapplied") ++counted[l.token];
  }
  return counted;
}

::testing::AssertionResult EveryAcknowledgedImpressionCountedOnce(const std::vector<std::string>& acked_identities,
                                                                 const std::vector<LogLine>& lines) {
  const std::map<std::string, size_t> counted = counted_by_identity(lines);
  std::vector<std::string> offenders;
  size_t never = 0, twice = 0, unknown = 0;
  for (const std::string& id : acked_identities) {
    if (id.empty()) {
      ++unknown;
      continue;
    }
    const auto it = counted.find(id);
    const size_t n = it == counted.end() ? 0 : it->second;
    if (n == 1) continue;
    (n == 0 ? never : twice) += 1;
    if (offenders.size() < 5) offenders.push_back(id);
  }
  if (never == 0 && twice == 0 && unknown == 0) return ::testing::AssertionSuccess();
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << acked_identities.size() << " acknowledged: " << never << " never counted, " << twice
          << " counted more than once, " << unknown << " tokens that did not open";
  for (const std::string& id : offenders) {
    failure << "\n  identity " << id << ":";
    for (const LogLine& l : lines) {
      if (l.kind == "impression" && l.token == id) {
        failure << " [ad " << l.ad << " user " << l.user << " duplicate " << l.duplicate << " store '" << l.store
                << "']";
      }
    }
  }
  return failure;
}

double sum_over_nodes(ClusterNodes& nodes, std::string_view metric) {
  double sum = 0;
  for (size_t n = 0; n < nodes.size(); ++n) sum += sum_samples(scrape_metrics(nodes.node(n)), metric, {}).value_or(0);
  return sum;
}

bool wait_for_empty_backlogs(ClusterNodes& nodes) {
  // A kept impression leaves the backlog while it is sent again and returns to it if the
  // store still does not take it: empty twice, a retry interval (1 s) apart, is settled.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int empty_in_a_row = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    bool empty = true;
    for (size_t n = 0; n < nodes.size() && empty; ++n) {
      const auto backlog =
          sum_samples(scrape_metrics(nodes.node(n)), "decisiond_shared_impressions_reapply_backlog", {});
      empty = backlog.has_value() && *backlog == 0;
    }
    empty_in_a_row = empty ? empty_in_a_row + 1 : 0;
    if (empty_in_a_row == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the last lines flushed
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(empty ? 1200 : 200));
  }
  return false;
}

}  // namespace integration
