#include "tests/integration/cluster/soak_traffic.h"

#include <algorithm>
#include <random>

#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/soak_schedule.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/tracking_flow.h"

namespace integration {

namespace {

// A thread takes a new user for one decision in this many (else one of its pool again), so
// users keep arriving below their caps while earlier ones are held at theirs.
constexpr int kNewUserOneIn = 6;
// How an impression URL is called, out of 100: once; on 2 or 3 nodes at once; twice in a
// row on one node.
constexpr int kOncePercent = 65;
constexpr int kConcurrentPercent = 20;

int draw(std::mt19937_64& random, int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); }

std::string decision_body(const std::string& user) {
  return R"({"placements":[{"key":"home_top","count":3}],"user":{"id":")" + user + R"("}})";
}

// One call through the directory: the node it went to, and whether a failure meets a fault.
template <typename Send>
SoakCall call_node(NodeDirectory& directory, uint32_t wanted, Send send) {
  const NodeDirectory::Lease lease = directory.pick(wanted);
  SoakCall call;
  call.node = lease.node;
  call.sent_ms = unix_now_ms();
  const CurlReply reply = send(lease.base_url);
  call.answered_ms = unix_now_ms();
  call.status = reply.ok ? reply.status : 0;
  call.error = reply.ok ? "" : reply.error;
  call.at_fault = directory.disturbed(lease);
  return call;
}

SoakCall call_impression(NodeDirectory& directory, uint32_t wanted, const std::string& token, CurlSession& session) {
  return call_node(directory, wanted, [&](const std::string& base) { return session.get(base + "/v1/tracking?t=" + token); });
}

uint64_t ad_number(const std::string& ad_id) {  // "ad_<id>"
  return ad_id.size() > 3 ? std::stoull(ad_id.substr(3)) : 0;
}

}  // namespace

SoakTraffic::SoakTraffic(NodeDirectory& directory, uint32_t node_count, std::string keys_state_dir, uint64_t seed,
                         uint32_t threads)
    : directory_(directory), keys_state_dir_(std::move(keys_state_dir)), seed_(seed), node_count_(node_count),
      records_(threads) {
  for (uint32_t t = 0; t < threads; ++t) threads_.emplace_back([this, t] { run(t); });
}

SoakTraffic::~SoakTraffic() { stop(); }

SoakRecord SoakTraffic::stop() {
  stopping_ = true;
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  SoakRecord all;
  for (SoakRecord& mine : records_) {
    const size_t base = all.decisions.size();
    for (SoakDecision& d : mine.decisions) all.decisions.push_back(std::move(d));
    for (SoakImpressionCall& c : mine.impressions) {
      c.decision += base;
      all.impressions.push_back(std::move(c));
    }
    mine = {};
  }
  return all;
}

void SoakTraffic::run(uint32_t thread) {
  // A user belongs to one thread, so one user's decisions and impressions follow each
  // other: a decision sent after the user's impressions were answered 204 must see them.
  std::mt19937_64 random = thread_random(seed_, thread);
  SoakRecord& record = records_[thread];
  std::vector<std::string> users;
  CurlSession session;  // kept-alive connections, as a real client's
  // Each served ad is kept by its identity, not its token: a long soak serves millions.
  ImpressionIdentities identities(keys_state_dir_);
  while (!stopping_) {
    if (users.empty() || draw(random, 1, kNewUserOneIn) == 1) {
      users.push_back("soak-t" + std::to_string(thread) + "-u" + std::to_string(users.size()));
    }
    SoakDecision decision;
    decision.user = users[static_cast<size_t>(draw(random, 0, static_cast<int>(users.size()) - 1))];
    const uint32_t node = static_cast<uint32_t>(draw(random, 0, static_cast<int>(node_count_) - 1));
    std::string body;
    decision.call = call_node(directory_, node, [&](const std::string& base) {
      CurlReply reply = session.post(base + "/v1/decision", decision_body(decision.user));
      body = reply.body;
      return reply;
    });
    std::vector<std::string> tokens;
    if (decision.call.status == 200) {
      for (const CreativeTokens& c : tokens_of(body)) {
        decision.served.push_back({ad_number(c.ad_id), identities.of(c.impression)});
        tokens.push_back(c.impression);
      }
    }
    const size_t index = record.decisions.size();
    record.decisions.push_back(decision);
    ++decisions_;
    for (size_t s = 0; s < tokens.size(); ++s) {
      const std::string& token = tokens[s];
      const int how = draw(random, 0, 99);
      if (how < kOncePercent) {
        const uint32_t on = static_cast<uint32_t>(draw(random, 0, static_cast<int>(node_count_) - 1));
        record.impressions.push_back({index, s, call_impression(directory_, on, token, session)});
      } else if (how < kOncePercent + kConcurrentPercent) {
        // Two or three distinct nodes, called at the same moment from threads of their own.
        std::vector<uint32_t> nodes(node_count_);
        for (uint32_t n = 0; n < node_count_; ++n) nodes[n] = n;
        std::shuffle(nodes.begin(), nodes.end(), random);
        nodes.resize(static_cast<size_t>(draw(random, 2, static_cast<int>(node_count_))));
        std::vector<SoakCall> calls(nodes.size());
        std::vector<std::thread> callers;
        for (size_t k = 0; k < nodes.size(); ++k) {
          callers.emplace_back([&, k] {
            CurlSession own;
            calls[k] = call_impression(directory_, nodes[k], token, own);
          });
        }
        for (std::thread& caller : callers) caller.join();
        for (SoakCall& c : calls) record.impressions.push_back({index, s, std::move(c)});
      } else {
        const uint32_t on = static_cast<uint32_t>(draw(random, 0, static_cast<int>(node_count_) - 1));
        for (int k = 0; k < 2; ++k) record.impressions.push_back({index, s, call_impression(directory_, on, token, session)});
      }
    }
  }
}

}  // namespace integration
