// Calls: admission, routing, replies and redirections, deadlines and retries on precise
// wakes. Topology, connections and state are in cluster_topology.cc.
#include "redis_cluster/cluster_client.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "runtime/check.h"

namespace redis_cluster {

namespace {
// Room in each connection's FIFO for the client's own commands (AUTH, libraries, ASKING,
// CLUSTER SHARDS) beside the calls.
constexpr uint32_t kInternalReplies = 256;
// A deadline this close to an armed wake is served by it: no second wake for 100 µs.
constexpr int64_t kWakeSlackNs = 100'000;
// Each call slot's command buffer, reserved at start: a cap read's HGETALL is about 40
// bytes and an impression's FCALL about 250, so the store's calls never grow it; a longer
// command grows its slot once, and the slot keeps the room.
constexpr size_t kCommandBytesKept = 256;

bool later(const auto& a, const auto& b) { return a.at_ns > b.at_ns; }
}  // namespace

ClusterClient::ClusterClient(runtime::Reactor& reactor, ClusterConfig config)
    : reactor_(reactor), config_(std::move(config)) {
  DECISIOND_CHECK_MSG(config_.max_in_flight > 0 && config_.max_redirects < 256, "bad cluster client bounds");
  jitter_state_ = 0x9E3779B97F4A7C15ull ^ (uint64_t{reactor.index()} << 32) ^
                  static_cast<uint64_t>(reactor.clock().monotonic_ns());
  slot_owner_.fill(kNoOwner);
  calls_.resize(config_.max_in_flight);
  for (PendingCall& c : calls_) c.command.reserve(kCommandBytesKept);
  free_calls_.reserve(config_.max_in_flight);
  for (uint32_t i = config_.max_in_flight; i > 0; --i) free_calls_.push_back(i - 1);
  // Each live call has at most a deadline and a retry in the heap; stale entries are
  // swept when it fills (push_due), so it never grows past what is reserved here.
  due_.reserve(3 * size_t{config_.max_in_flight} + 16);
  deferred_.reserve(config_.max_in_flight);
  nodes_.reserve(kMaxNodes);
  with_output_.reserve(kMaxNodes);
  const std::string_view asking[] = {"ASKING"};
  asking_ = FormattedCommand(asking);
  const std::string_view shards[] = {"CLUSTER", "SHARDS"};
  cluster_shards_ = FormattedCommand(shards);
  const std::string_view coverage[] = {"CONFIG", "GET", "cluster-require-full-coverage"};
  coverage_setting_ = FormattedCommand(coverage);
  if (!config_.password.empty()) {
    std::vector<std::string_view> auth = {"AUTH"};
    if (!config_.user.empty()) auth.push_back(config_.user);
    auth.push_back(config_.password);
    auth_ = FormattedCommand(auth);
  }
}

ClusterClient::~ClusterClient() {
  if (started_ && !stopped_) stop();
  if (hooked_) reactor_.remove_loop_hook(*this);
}

void ClusterClient::require_library(std::string code) {
  const std::string_view load[] = {"FUNCTION", "LOAD", "REPLACE", code};
  library_loads_.emplace_back(load);
  libraries_.push_back(std::move(code));
  for (auto& node : nodes_) {
    if (!node->accepts_commands()) continue;
    if (node->enqueue(library_loads_.back().bytes(), {ExpectedReply::Kind::kLibraryLoad})) counters_.library_loads.add();
  }
}

bool ClusterClient::call(std::string_view routing_key, std::span<const std::string_view> args, int64_t deadline_ns,
                         Call& call) {
  // Before start() there is no loop hook to report a failure from: refused like a full table.
  if (free_calls_.empty() || !hooked_) {
    counters_.refused.add();
    return false;
  }
  const uint32_t index = free_calls_.back();
  free_calls_.pop_back();
  PendingCall& c = calls_[index];
  DECISIOND_CHECK_MSG(c.call == nullptr, "a free call slot still holds a call");
  c.call = &call;
  c.command.assign(args);  // into the slot's own buffer: no allocation once warm
  c.slot = key_slot(routing_key);
  c.redirects = 0;
  c.library_retried = false;
  c.retry_pending = false;
  c.deadline_ns = deadline_ns;
  c.started_ns = reactor_.clock().monotonic_ns();
  if (stopped_) {  // fails from the loop hook; no wake to arm for a call that never leaves
    deferred_.push_back({index, c.generation});
    return true;
  }
  push_due({deadline_ns, index, c.generation, false});
  const uint16_t owner = slot_owner_[c.slot];
  NodeConnection* node = owner == kNoOwner ? nullptr : nodes_[owner].get();
  // A failure found here is reported from the loop hook: never inside call().
  if (c.command.empty() || !send_call(index, node)) deferred_.push_back({index, c.generation});
  return true;
}

bool ClusterClient::send_call(uint32_t index, NodeConnection* node) {
  // A node that is down fails the call at once rather than at its deadline.
  if (node == nullptr || !node->accepts_commands()) return false;
  const PendingCall& c = calls_[index];
  return node->enqueue(c.command.bytes(), {ExpectedReply::Kind::kCall, index, c.generation});
}

void ClusterClient::route(uint32_t index) {
  const uint16_t owner = slot_owner_[calls_[index].slot];
  if (!send_call(index, owner == kNoOwner ? nullptr : nodes_[owner].get())) fail_call(index, CallFailure::kUnavailable);
}

ClusterClient::PendingCall& ClusterClient::release(uint32_t index, Call*& call) {
  PendingCall& c = calls_[index];
  call = std::exchange(c.call, nullptr);
  ++c.generation;  // every reply, deadline or retry still naming it is stale from now on
  c.command.clear();
  free_calls_.push_back(index);
  return c;
}

void ClusterClient::fail_call(uint32_t index, CallFailure why) {
  Call* call = nullptr;
  release(index, call);
  (why == CallFailure::kTimeout ? counters_.timeouts : counters_.unavailable).add();
  // Released first: the callback may start its next command with the same Call.
  call->on_failed(why);
}

void ClusterClient::reply_call(uint32_t index, const Reply& reply) {
  Call* call = nullptr;
  const PendingCall& c = release(index, call);
  (reply.is_error() ? counters_.error_replies : counters_.replies).add();
  counters_.record_round_trip((reactor_.clock().monotonic_ns() - c.started_ns) / 1000);
  call->on_reply(reply);
}

void ClusterClient::on_node_reply(NodeConnection& node, const ExpectedReply& expected, const Reply& reply) {
  // A node that answers (not with an error: AUTH refused, no cluster) starts its next
  // backoff afresh.
  if (!reply.is_error()) node.failed_attempts = 0;
  if (expected.kind != ExpectedReply::Kind::kCall) {
    on_handshake_reply(node, expected, reply);
    return;
  }
  if (!live(expected.call, expected.generation)) return;  // timed out: the Call is not ours any more
  on_call_reply(node, expected.call, reply);
}

void ClusterClient::on_call_reply(NodeConnection& node, uint32_t index, const Reply& reply) {
  if (!reply.is_error()) {
    reply_call(index, reply);
    return;
  }
  const std::string_view text = reply.text();
  if (text.starts_with("MOVED ") || text.starts_with("ASK ")) {
    redirect(node, index, text, text.starts_with("ASK "));
  } else if (text.starts_with("TRYAGAIN") || text.starts_with("CLUSTERDOWN") || text.starts_with("LOADING")) {
    retry_later(index);
  } else if (text.starts_with("ERR Function not found") && !calls_[index].library_retried && !libraries_.empty()) {
    // The node lost its functions (a restart without persistence, FUNCTION FLUSH): load
    // them again, then the call once more, in that order on the same connection.
    calls_[index].library_retried = true;
    for (const FormattedCommand& load : library_loads_) {
      if (node.enqueue(load.bytes(), {ExpectedReply::Kind::kLibraryLoad})) counters_.library_loads.add();
    }
    if (!send_call(index, &node)) fail_call(index, CallFailure::kUnavailable);
  } else {
    reply_call(index, reply);
  }
}

// "MOVED <slot> <host:port>" or "ASK <slot> <host:port>"; an empty host is the replying node's.
void ClusterClient::redirect(NodeConnection& from, uint32_t index, std::string_view error, bool ask) {
  PendingCall& c = calls_[index];
  if (c.redirects >= config_.max_redirects) {
    fail_call(index, CallFailure::kUnavailable);
    return;
  }
  ++c.redirects;
  (ask ? counters_.asked : counters_.moved).add();
  const size_t first_space = error.find(' ');
  const size_t second_space = error.find(' ', first_space + 1);
  unsigned slot = kSlotCount;
  std::from_chars(error.data() + first_space + 1, error.data() + std::min(second_space, error.size()), slot);
  std::string_view target = second_space == std::string_view::npos ? std::string_view() : error.substr(second_space + 1);
  NodeConnection* node = slot < kSlotCount ? node_at(target, &from) : nullptr;
  if (node == nullptr) {
    fail_call(index, CallFailure::kUnavailable);
    return;
  }
  if (ask) {
    // ASKING holds for the next command on that connection only: both leave together.
    const bool queued = node->accepts_commands() &&
                        node->enqueue_pair(asking_.bytes(), {ExpectedReply::Kind::kAsking}, c.command.bytes(),
                                           {ExpectedReply::Kind::kCall, index, c.generation});
    if (!queued) fail_call(index, CallFailure::kUnavailable);
    return;
  }
  set_owner(static_cast<uint16_t>(slot), node);
  refresh_topology();  // rate-limited: one CLUSTER SHARDS per interval however many MOVED
  if (!send_call(index, node)) fail_call(index, CallFailure::kUnavailable);
}

void ClusterClient::retry_later(uint32_t index) {
  PendingCall& c = calls_[index];
  if (c.redirects >= config_.max_redirects) {
    fail_call(index, CallFailure::kUnavailable);
    return;
  }
  counters_.retries.add();
  const int64_t at_ns = reactor_.clock().monotonic_ns() + (kRetryDelayNs << c.redirects);
  ++c.redirects;
  // A retry due after the deadline would never run: the deadline fails the call first.
  if (at_ns >= c.deadline_ns) return;
  c.retry_pending = true;
  push_due({at_ns, index, c.generation, true});
}

void ClusterClient::push_due(const Due& due) {
  if (due_.size() == due_.capacity()) {
    std::erase_if(due_, [&](const Due& d) { return !live(d.call, d.generation); });
    std::make_heap(due_.begin(), due_.end(), later<Due, Due>);
  }
  DECISIOND_CHECK_MSG(due_.size() < due_.capacity(), "deadline heap past its bound");
  due_.push_back(due);
  std::push_heap(due_.begin(), due_.end(), later<Due, Due>);
  arm_wake();
}

void ClusterClient::run_due() {
  const int64_t now_ns = reactor_.clock().monotonic_ns();
  while (!due_.empty() && due_.front().at_ns <= now_ns) {
    std::pop_heap(due_.begin(), due_.end(), later<Due, Due>);
    const Due due = due_.back();
    due_.pop_back();
    if (!live(due.call, due.generation)) continue;
    if (!due.retry) {
      fail_call(due.call, CallFailure::kTimeout);
    } else if (calls_[due.call].retry_pending) {
      calls_[due.call].retry_pending = false;
      route(due.call);
    }
  }
}

// One wake in the ring for the earliest due time; a later one armed before it is left to
// complete and be ignored, and the latest is cancelled when every wake is taken.
void ClusterClient::arm_wake() {
  if (due_.empty()) return;
  const int64_t at_ns = due_.front().at_ns;
  Wake* free_wake = nullptr;
  Wake* latest = nullptr;
  for (Wake& w : wakes_) {
    if (w.armed && w.at_ns <= at_ns + kWakeSlackNs) return;
    if (!w.armed && free_wake == nullptr) free_wake = &w;
    if (w.armed && !w.cancelling && (latest == nullptr || w.at_ns > latest->at_ns)) latest = &w;
  }
  if (free_wake == nullptr) {
    // Its completion (-ECANCELED) frees it and arms the wake again.
    if (latest != nullptr) {
      latest->cancelling = true;
      reactor_.cancel(*this, static_cast<uint8_t>(latest - wakes_.data()));
    }
    return;
  }
  const int64_t relative_ns = std::max<int64_t>(0, at_ns - reactor_.clock().monotonic_ns());
  free_wake->armed = true;
  free_wake->cancelling = false;
  free_wake->at_ns = at_ns;
  free_wake->relative = {.tv_sec = relative_ns / 1'000'000'000, .tv_nsec = relative_ns % 1'000'000'000};
  reactor_.wake_after(free_wake->relative, *this, static_cast<uint8_t>(free_wake - wakes_.data()));
}

void ClusterClient::on_file_complete(uint8_t tag, int) {
  DECISIOND_CHECK_MSG(tag < kWakes && wakes_[tag].armed, "a wake completed that was not armed");
  wakes_[tag].armed = false;
  wakes_[tag].cancelling = false;
  run_due();
  arm_wake();
}

void ClusterClient::before_wait() {
  // Only the failures present now: one a callback adds goes out on the next turn, which
  // an immediate wake makes sure comes.
  const size_t count = deferred_.size();
  for (size_t i = 0; i < count; ++i) {
    const Deferred d = deferred_[i];
    if (live(d.call, d.generation)) fail_call(d.call, CallFailure::kUnavailable);
  }
  deferred_.erase(deferred_.begin(), deferred_.begin() + static_cast<ptrdiff_t>(count));
  if (!deferred_.empty()) push_due({reactor_.clock().monotonic_ns(), UINT32_MAX, 0, true});
  for (NodeConnection* node : with_output_) {
    node->output_listed = false;
    node->flush();
  }
  with_output_.clear();
}

void ClusterClient::on_node_has_output(NodeConnection& node) {
  if (node.output_listed) return;
  node.output_listed = true;
  with_output_.push_back(&node);
}

}  // namespace redis_cluster
