#pragma once
// A Redis Cluster client for one core (docs/redis-cluster-client.md): it learns the slot
// map from CLUSTER SHARDS, keeps one pipelined connection per primary through the core's
// ring, routes each call to the primary of its key's slot, follows MOVED and ASK, retries
// TRYAGAIN, CLUSTERDOWN and LOADING within the call's deadline, reconnects with backoff,
// and keeps a function library loaded on every primary. One object per core, used only on
// that core's reactor thread; nothing on its paths blocks, and everything is bounded.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "redis_cluster/cluster_config.h"
#include "redis_cluster/cluster_counters.h"
#include "redis_cluster/command.h"
#include "redis_cluster/key_slot.h"
#include "redis_cluster/node_connection.h"
#include "runtime/file_io.h"
#include "runtime/reactor.h"
#include "runtime/timer_wheel.h"

namespace redis_cluster {

class ClusterClient final : public NodeListener, public runtime::FileCompletion, public runtime::LoopHook {
 public:
  ClusterClient(runtime::Reactor& reactor, ClusterConfig config);
  ~ClusterClient() override;
  ClusterClient(const ClusterClient&) = delete;
  ClusterClient& operator=(const ClusterClient&) = delete;

  // Non-blocking: connects to the seeds through the ring and asks for CLUSTER SHARDS.
  void start();
  // Closes every connection; calls still pending fail (kUnavailable) before it returns, and
  // later calls fail (kUnavailable) from the loop. The object must outlive the completions
  // still in the ring: quiescent() says when.
  void stop();
  bool quiescent() const;

  // A function library every primary must hold: sent as FUNCTION LOAD REPLACE <code> on
  // each new connection before any call, and again on a node that answers a call with
  // "ERR Function not found", after which that call is retried once.
  void require_library(std::string code);

  // Sends args (args[0] the command) to the primary of key_slot(routing_key); args are
  // copied before it returns. Exactly one of call.on_reply / call.on_failed follows, never
  // inside call(), unless call() returns false (refused at max_in_flight, or before
  // start(): no callback).
  // on_failed(kTimeout) fires at deadline_ns (monotonic, the reactor's clock) if no reply
  // has come; a reply arriving later is dropped and never touches the Call.
  bool call(std::string_view routing_key, std::span<const std::string_view> args, int64_t deadline_ns, Call& call);

  ClusterState state() const { return state_; }
  const ClusterCounters& counters() const { return counters_; }
  // The node serving a slot now ("host:port"), empty when none: for tests and admin pages.
  std::string owner_of(uint16_t slot) const;

  // NodeListener
  void on_node_connecting(NodeConnection& node) override;
  void on_node_connected(NodeConnection& node) override;
  void on_node_reply(NodeConnection& node, const ExpectedReply& expected, const Reply& reply) override;
  void on_node_lost(NodeConnection& node, std::string_view why) override;
  void on_node_has_output(NodeConnection& node) override;
  // FileCompletion: the precise wakes (tag: the wake's index).
  void on_file_complete(uint8_t tag, int result) override;
  // LoopHook: deferred failures, then one send per node with output.
  void before_wait() override;

 private:
  static constexpr uint16_t kNoOwner = UINT16_MAX;
  static constexpr size_t kMaxNodes = 1024;  // a Redis cluster's practical size
  static constexpr size_t kWakes = 4;        // precise wakes in the ring at once
  static constexpr int64_t kRefreshIntervalNs = 100'000'000;
  static constexpr int64_t kDegradedRefreshMs = 500;  // slot map re-read while some slots are unserved
  static constexpr int64_t kRetryDelayNs = 5'000'000;  // first retry after TRYAGAIN & co., doubling

  struct PendingCall {
    Call* call = nullptr;  // null: the slot is free
    uint32_t generation = 0;
    FormattedCommand command;
    uint16_t slot = 0;
    uint8_t redirects = 0;
    bool library_retried = false;
    bool retry_pending = false;
    int64_t deadline_ns = 0;
    int64_t started_ns = 0;
  };
  // A deadline or a retry due; stale once the call's generation has moved on.
  struct Due {
    int64_t at_ns;
    uint32_t call;
    uint32_t generation;
    bool retry;
  };
  struct Deferred {
    uint32_t call;
    uint32_t generation;
  };
  struct Wake {
    bool armed = false;
    bool cancelling = false;
    int64_t at_ns = 0;
    __kernel_timespec relative{};
  };
  class RefreshAlarm final : public runtime::Timer {
   public:
    explicit RefreshAlarm(ClusterClient& client) : client_(client) {}
    void on_expire() override { client_.refresh_topology(); }

   private:
    ClusterClient& client_;
  };

  // Calls (cluster_client.cc).
  bool live(uint32_t call, uint32_t generation) const {
    return call < calls_.size() && calls_[call].call != nullptr && calls_[call].generation == generation;
  }
  bool send_call(uint32_t index, NodeConnection* node);
  void route(uint32_t index);
  void fail_call(uint32_t index, CallFailure why);
  void reply_call(uint32_t index, const Reply& reply);
  PendingCall& release(uint32_t index, Call*& call);
  void on_call_reply(NodeConnection& node, uint32_t index, const Reply& reply);
  void redirect(NodeConnection& from, uint32_t index, std::string_view error, bool ask);
  void retry_later(uint32_t index);
  void push_due(const Due& due);
  void run_due();
  void arm_wake();
  // Topology, nodes and state (cluster_topology.cc).
  NodeConnection* node_at(std::string_view host_port, const NodeConnection* asked);
  NodeConnection* add_node(const NodeAddress& address);
  bool wanted(const NodeConnection& node) const { return node.owned_slots > 0 || !topology_known_; }
  void refresh_topology();
  void apply_topology(NodeConnection& from, const Reply& reply);
  void on_handshake_reply(NodeConnection& node, const ExpectedReply& expected, const Reply& reply);
  void on_coverage_setting(NodeConnection& node, const Reply& reply);
  void set_owner(uint16_t slot, NodeConnection* node);
  void schedule_reconnect(NodeConnection& node);
  void update_state(std::string_view reason);
  void set_fatal(ClusterState fatal, std::string_view reason);

  runtime::Reactor& reactor_;
  const ClusterConfig config_;
  ClusterCounters counters_;
  ClusterState state_ = ClusterState::kStarting;
  ClusterState fatal_ = ClusterState::kStarting;  // kNotCluster or kAuthFailed until a slot map comes
  bool started_ = false;
  bool hooked_ = false;  // the loop hook stays from start() to the destructor
  bool stopped_ = false;
  bool topology_known_ = false;
  bool refresh_in_flight_ = false;
  bool refresh_wanted_ = false;
  int64_t last_refresh_ns_ = INT64_MIN / 2;
  uint64_t jitter_state_;

  std::vector<std::unique_ptr<NodeConnection>> nodes_;
  std::array<uint16_t, kSlotCount> slot_owner_;
  std::vector<PendingCall> calls_;
  std::vector<uint32_t> free_calls_;
  std::vector<Due> due_;  // a min-heap on at_ns
  std::vector<Deferred> deferred_;
  std::vector<NodeConnection*> with_output_;
  std::array<Wake, kWakes> wakes_;
  std::vector<std::string> libraries_;
  std::vector<FormattedCommand> library_loads_;
  FormattedCommand auth_;
  FormattedCommand coverage_setting_;  // CONFIG GET cluster-require-full-coverage
  FormattedCommand asking_;
  FormattedCommand cluster_shards_;
  RefreshAlarm refresh_alarm_{*this};
};

}  // namespace redis_cluster
