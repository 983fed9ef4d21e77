// The cluster side of the client: seeds, the slot map from CLUSTER SHARDS, one connection
// per primary with its handshake (AUTH, libraries), reconnection with backoff, and the
// state derived from all of it. Calls are in cluster_client.cc.
#include <algorithm>
#include <charconv>
#include <utility>

#include "redis_cluster/cluster_client.h"
#include "redis_cluster/cluster_shards.h"
#include "runtime/check.h"
#include "runtime/log/logger.h"

namespace redis_cluster {

namespace {
constexpr runtime::log::Logger kTopologyLog("redis");
}  // namespace

std::string_view state_name(ClusterState state) {
  switch (state) {
    case ClusterState::kStarting: return "starting";
    case ClusterState::kUp: return "up";
    case ClusterState::kPartial: return "partial";
    case ClusterState::kDown: return "down";
    case ClusterState::kNotCluster: return "not_cluster";
    case ClusterState::kAuthFailed: return "auth_failed";
  }
  return "unknown";
}

void ClusterClient::start() {
  if (started_ && !stopped_) return;
  started_ = true;
  stopped_ = false;
  if (!hooked_) reactor_.add_loop_hook(*this);
  hooked_ = true;
  for (const NodeAddress& seed : config_.seeds) {
    NodeConnection* node = node_at(to_host_port(seed), nullptr);
    if (node != nullptr) node->seed = true;
  }
  for (auto& node : nodes_) {  // after a stop(), the nodes known then come back
    if (wanted(*node)) node->connect();
  }
  refresh_wanted_ = true;
  update_state("started");
}

void ClusterClient::stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  reactor_.timers().cancel(refresh_alarm_);
  for (auto& node : nodes_) {
    node->cancel_reconnect();
    node->fail("stopped", /*quietly=*/true);
  }
  for (uint32_t i = 0; i < calls_.size(); ++i) {
    if (calls_[i].call != nullptr) fail_call(i, CallFailure::kUnavailable);
  }
  deferred_.clear();
  due_.clear();
  // Nothing is due any more: the wakes in the ring are cancelled so that the client
  // becomes quiescent now rather than at its last deadline.
  for (size_t i = 0; i < wakes_.size(); ++i) {
    if (!wakes_[i].armed || wakes_[i].cancelling) continue;
    wakes_[i].cancelling = true;
    reactor_.cancel(*this, static_cast<uint8_t>(i));
  }
  for (NodeConnection* node : with_output_) node->output_listed = false;
  with_output_.clear();
  counters_.connected_primaries.set(0);
  update_state("stopped");
}

bool ClusterClient::quiescent() const {
  for (const Wake& w : wakes_) {
    if (w.armed) return false;
  }
  for (const auto& node : nodes_) {
    if (!node->quiescent()) return false;
  }
  return true;
}

std::string ClusterClient::owner_of(uint16_t slot) const {
  const uint16_t owner = slot_owner_[slot % kSlotCount];
  return owner == kNoOwner ? std::string() : nodes_[owner]->host_port();
}

// The node at "host:port" (an empty host: the same host as `asked`), added and connecting
// if it is new; null for an address that is not an IP literal or past the node bound.
NodeConnection* ClusterClient::node_at(std::string_view host_port, const NodeConnection* asked) {
  const size_t colon = host_port.rfind(':');
  if (colon == std::string_view::npos) return nullptr;
  unsigned port = 0;
  const std::string_view port_text = host_port.substr(colon + 1);
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535) return nullptr;
  std::string_view host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  if (host.empty() && asked != nullptr) host = asked->address().host;
  const NodeAddress address{std::string(host), static_cast<uint16_t>(port)};
  const std::string key = to_host_port(address);
  for (auto& node : nodes_) {
    if (node->host_port() == key) return node.get();
  }
  return add_node(address);
}

NodeConnection* ClusterClient::add_node(const NodeAddress& address) {
  absl::StatusOr<runtime::SocketAddress> socket_address = runtime::SocketAddress::parse(to_host_port(address));
  if (!socket_address.ok() || nodes_.size() >= kMaxNodes || address.port == 0) return nullptr;
  nodes_.push_back(std::make_unique<NodeConnection>(reactor_, *this, address, *socket_address,
                                                    config_.connect_timeout_ms, config_.max_pending_bytes,
                                                    config_.max_in_flight + 256, counters_.sends));
  NodeConnection* node = nodes_.back().get();
  if (!stopped_) node->connect();
  return node;
}

void ClusterClient::refresh_topology() {
  refresh_wanted_ = true;
  if (refresh_in_flight_ || stopped_ || !started_) return;
  const int64_t now_ns = reactor_.clock().monotonic_ns();
  if (now_ns - last_refresh_ns_ < kRefreshIntervalNs) {
    if (!refresh_alarm_.armed()) {
      reactor_.timers().schedule(refresh_alarm_, (kRefreshIntervalNs - (now_ns - last_refresh_ns_)) / 1'000'000 + 1);
    }
    return;
  }
  // Any node that answers will do, a connected one first; with none, the seeds come back.
  NodeConnection* target = nullptr;
  for (auto& node : nodes_) {
    if (node->state() == NodeConnection::State::kConnected) target = node.get();
    if (target != nullptr) break;
  }
  if (target == nullptr) {
    for (auto& node : nodes_) {
      if (node->seed && node->state() == NodeConnection::State::kIdle && !node->reconnect_scheduled()) node->connect();
    }
    return;  // the first node to connect asks (on_node_connected)
  }
  if (!target->enqueue(cluster_shards_.bytes(), {ExpectedReply::Kind::kClusterShards})) return;
  refresh_in_flight_ = true;
  refresh_wanted_ = false;
  last_refresh_ns_ = now_ns;
  counters_.topology_refreshes.add();
}

void ClusterClient::set_owner(uint16_t slot, NodeConnection* node) {
  const uint16_t old_owner = slot_owner_[slot];
  if (old_owner != kNoOwner) --nodes_[old_owner]->owned_slots;
  uint16_t index = kNoOwner;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].get() == node) index = static_cast<uint16_t>(i);
  }
  slot_owner_[slot] = index;
  if (index != kNoOwner) ++node->owned_slots;
}

void ClusterClient::apply_topology(NodeConnection& from, const Reply& reply) {
  refresh_in_flight_ = false;
  if (reply.is_error_starting("ERR This instance has cluster support disabled")) {
    set_fatal(ClusterState::kNotCluster, reply.text());
    from.fail("not a cluster");
    return;
  }
  absl::StatusOr<std::vector<ShardPrimary>> shards = parse_cluster_shards(reply);
  if (!shards.ok() || reply.is_error()) {
    refresh_topology();  // after the interval
    return;
  }
  slot_owner_.fill(kNoOwner);
  for (auto& node : nodes_) node->owned_slots = 0;
  for (const ShardPrimary& shard : *shards) {
    NodeConnection* node = node_at(to_host_port(shard.address), nullptr);
    if (node == nullptr) continue;
    for (const SlotRange& range : shard.ranges) {
      for (uint32_t slot = range.first; slot <= range.last; ++slot) set_owner(static_cast<uint16_t>(slot), node);
    }
  }
  topology_known_ = true;
  fatal_ = ClusterState::kStarting;
  for (auto& node : nodes_) {
    if (!wanted(*node)) {
      node->cancel_reconnect();  // a primary replaced by a failover, a seed that is a replica
    } else if (node->state() == NodeConnection::State::kIdle && !node->reconnect_scheduled()) {
      node->connect();
    }
  }
  update_state("slot map read");
}

void ClusterClient::on_handshake_reply(NodeConnection& node, const ExpectedReply& expected, const Reply& reply) {
  switch (expected.kind) {
    case ExpectedReply::Kind::kAuth:
      if (reply.is_error()) {
        set_fatal(ClusterState::kAuthFailed, reply.text());
        node.fail("AUTH refused");
        return;
      }
      break;
    case ExpectedReply::Kind::kLibraryLoad:
      if (reply.is_error()) {
        kTopologyLog.error("redis %s: FUNCTION LOAD failed: %.*s", node.host_port().c_str(),
                   static_cast<int>(reply.text().size()), reply.text().data());
      }
      break;
    case ExpectedReply::Kind::kClusterShards:
      apply_topology(node, reply);
      return;
    case ExpectedReply::Kind::kCoverageSetting:
      on_coverage_setting(node, reply);
      return;
    default:
      return;
  }
}

void ClusterClient::on_coverage_setting(NodeConnection& node, const Reply& reply) {
  // ["cluster-require-full-coverage", "yes"|"no"]; an error (CONFIG not allowed to this ACL
  // user) tells nothing, and nothing is said.
  if (reply.kind() != Reply::Kind::kArray || reply.size() != 2) return;
  const bool full_coverage = reply.at(1).text() == "yes";
  if (full_coverage && !node.requires_full_coverage && reactor_.index() == 0) {
    kTopologyLog.warn("redis %s: cluster-require-full-coverage is yes: while any primary is down, every primary refuses "
              "every key and every user's capped ads are held back; set it to no (docs/cluster.md)",
              node.host_port().c_str());
  }
  node.requires_full_coverage = full_coverage;
  uint64_t count = 0;
  for (const auto& n : nodes_) count += n->requires_full_coverage ? 1 : 0;
  counters_.full_coverage_nodes.set(count);
}

void ClusterClient::on_node_connecting(NodeConnection& node) {
  // First on the wire, before any call queued behind them.
  if (!auth_.empty()) node.enqueue(auth_.bytes(), {ExpectedReply::Kind::kAuth});
  for (const FormattedCommand& load : library_loads_) {
    if (node.enqueue(load.bytes(), {ExpectedReply::Kind::kLibraryLoad})) counters_.library_loads.add();
  }
  node.enqueue(coverage_setting_.bytes(), {ExpectedReply::Kind::kCoverageSetting});
}

void ClusterClient::on_node_connected(NodeConnection& node) {
  if (node.ever_connected) counters_.reconnects.add();
  node.ever_connected = true;
  if (refresh_wanted_ && !refresh_in_flight_) refresh_topology();
  update_state("connected");
}

void ClusterClient::on_node_lost(NodeConnection& node, std::string_view why) {
  counters_.connection_failures.add();
  node.drop_expected([&](const ExpectedReply& e) {
    if (e.kind == ExpectedReply::Kind::kCall && live(e.call, e.generation)) fail_call(e.call, CallFailure::kUnavailable);
    if (e.kind == ExpectedReply::Kind::kClusterShards) refresh_in_flight_ = false;
  });
  if (node.ever_connected && node.failed_attempts == 0) {
    kTopologyLog.warn("redis %s: connection lost: %.*s", node.host_port().c_str(), static_cast<int>(why.size()), why.data());
  }
  if (stopped_) return;
  if (wanted(node)) schedule_reconnect(node);
  // The slot map may be why: a failover, a node gone. Rate-limited like every refresh.
  if (node.owned_slots > 0 || !topology_known_) refresh_topology();
  update_state(why);
}

void ClusterClient::schedule_reconnect(NodeConnection& node) {
  const uint32_t doublings = std::min<uint32_t>(node.failed_attempts, 20);
  ++node.failed_attempts;
  const int64_t backoff_ms = std::min(config_.backoff_max_ms, config_.backoff_min_ms << doublings);
  // Jitter (half to all of the backoff) so that every core does not knock at once.
  jitter_state_ ^= jitter_state_ << 13;
  jitter_state_ ^= jitter_state_ >> 7;
  jitter_state_ ^= jitter_state_ << 17;
  const int64_t half = std::max<int64_t>(1, backoff_ms / 2);
  node.connect_after(half + static_cast<int64_t>(jitter_state_ % static_cast<uint64_t>(half)));
}

void ClusterClient::set_fatal(ClusterState fatal, std::string_view reason) {
  fatal_ = fatal;
  update_state(reason);
}

void ClusterClient::update_state(std::string_view reason) {
  uint32_t connected = 0;
  uint32_t served_slots = 0;
  for (const auto& node : nodes_) {
    if (node->owned_slots == 0 || node->state() != NodeConnection::State::kConnected) continue;
    ++connected;
    served_slots += node->owned_slots;
  }
  counters_.connected_primaries.set(connected);
  ClusterState next = ClusterState::kDown;
  if (fatal_ == ClusterState::kNotCluster || fatal_ == ClusterState::kAuthFailed) {
    next = fatal_;
  } else if (stopped_) {
    next = ClusterState::kDown;
  } else if (!topology_known_) {
    next = state_ == ClusterState::kStarting ? ClusterState::kStarting : ClusterState::kDown;
  } else if (served_slots == kSlotCount) {
    next = ClusterState::kUp;
  } else if (served_slots > 0) {
    next = ClusterState::kPartial;
  }
  // With slots unserved, nothing else may ever show the way back (calls to them fail at
  // once, so no MOVED comes; a failed primary left the map): read it again regularly.
  if ((next == ClusterState::kPartial || next == ClusterState::kDown) && topology_known_ && !stopped_ &&
      !refresh_alarm_.armed()) {
    reactor_.timers().schedule(refresh_alarm_, kDegradedRefreshMs);
  }
  if (next == state_) return;
  // Up again is news; any other change is a loss of service someone should look at.
  const runtime::log::Level level = next == ClusterState::kUp ? runtime::log::Level::kInfo : runtime::log::Level::kWarn;
  const std::string_view from = state_name(state_);
  const std::string_view to = state_name(next);
  kTopologyLog.say(level, "redis cluster %.*s -> %.*s (%.*s)", static_cast<int>(from.size()), from.data(),
           static_cast<int>(to.size()), to.data(), static_cast<int>(reason.size()), reason.data());
  state_ = next;
  counters_.state.set(static_cast<uint64_t>(next));
}

}  // namespace redis_cluster
