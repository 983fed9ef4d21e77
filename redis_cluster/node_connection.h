#pragma once
// One connection from one core to one cluster node, entirely through the core's ring:
// connect (with a timeout), commands pipelined into one buffer and handed to the kernel in
// one send when the client flushes at the end of a loop turn (never from a completion in
// the middle of one), replies read by a RespReader and matched in FIFO order to what was
// sent. What the replies mean is the client's (cluster_client.h); this
// class knows bytes, order and bounds.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redis_cluster/reply.h"
#include "redis_cluster/seed_list.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/reactor.h"
#include "runtime/socket_address.h"
#include "runtime/timer_wheel.h"

namespace redis_cluster {

// What a reply in a connection's FIFO answers.
struct ExpectedReply {
  enum class Kind : uint8_t { kCall, kAsking, kAuth, kLibraryLoad, kClusterShards, kCoverageSetting };
  Kind kind = Kind::kCall;
  uint32_t call = 0;  // kCall: the call's slot in the client and its generation
  uint32_t generation = 0;
};

class NodeConnection;

class NodeListener {
 public:
  virtual ~NodeListener() = default;
  // A connection attempt begins: what the node must receive first (AUTH, libraries) goes
  // in now, before any call can be queued behind it.
  virtual void on_node_connecting(NodeConnection& node) = 0;
  virtual void on_node_connected(NodeConnection& node) = 0;
  virtual void on_node_reply(NodeConnection& node, const ExpectedReply& expected, const Reply& reply) = 0;
  // The attempt failed or the connection was lost; every expected reply is handed to
  // `drop` first (expected_replies() is then empty).
  virtual void on_node_lost(NodeConnection& node, std::string_view why) = 0;
  // A queued command waits for its send (queued now, or left behind a send that has just
  // completed): the client flushes such nodes before the core waits, so each send carries
  // everything the turn gathered for its node (one send per node per loop turn).
  virtual void on_node_has_output(NodeConnection& node) = 0;
};

class NodeConnection final : public runtime::SocketEvents, public runtime::FileCompletion {
 public:
  enum class State : uint8_t { kIdle, kConnecting, kConnected, kClosing };

  NodeConnection(runtime::Reactor& reactor, NodeListener& listener, NodeAddress address,
                 runtime::SocketAddress socket_address, int64_t connect_timeout_ms, size_t max_pending_bytes,
                 uint32_t max_expected, runtime::CoreCounter& sends);
  ~NodeConnection() override;
  NodeConnection(const NodeConnection&) = delete;
  NodeConnection& operator=(const NodeConnection&) = delete;

  const NodeAddress& address() const { return address_; }
  const std::string& host_port() const { return host_port_; }
  State state() const { return state_; }
  // Connecting or connected: commands queued now will be sent.
  bool accepts_commands() const { return state_ == State::kConnecting || state_ == State::kConnected; }
  // No socket, no connect in flight: the object may be destroyed.
  bool quiescent() const { return state_ == State::kIdle && !connect_in_flight_; }

  // Starts an attempt now (kIdle only), or after delay_ms; a reconnection asked for while
  // the last socket is still closing starts once it is released.
  void connect();
  void connect_after(int64_t delay_ms);
  bool reconnect_scheduled() const { return reconnect_timer_.armed() || connect_when_released_; }
  void cancel_reconnect();
  // Closes whatever there is and reports on_node_lost unless `quietly`.
  void fail(std::string_view why, bool quietly = false);

  // Queues one or more whole commands answered by the expected replies, in order; false
  // (nothing queued) past the pending-bytes or FIFO bound or when not accepting.
  bool enqueue(std::string_view bytes, const ExpectedReply& expected);
  bool enqueue_pair(std::string_view first, const ExpectedReply& first_expected, std::string_view second,
                    const ExpectedReply& second_expected);
  void flush();
  // Hands every expected reply, oldest first, to drop and forgets them.
  template <typename Drop>
  void drop_expected(Drop&& drop) {
    while (expected_count_ > 0) {
      const ExpectedReply e = expected_[expected_head_];
      expected_head_ = (expected_head_ + 1) % expected_.size();
      --expected_count_;
      drop(e);
    }
  }

  // Bookkeeping of the client's, kept with the node it describes.
  uint32_t owned_slots = 0;
  bool seed = false;
  uint32_t failed_attempts = 0;  // since the last connection that answered
  bool ever_connected = false;
  // The node's cluster-require-full-coverage is yes (docs/redis-cluster-client.md).
  bool requires_full_coverage = false;
  bool output_listed = false;  // in the client's list of nodes to flush this turn

  // SocketEvents
  void on_receive(std::string_view bytes) override;
  void on_peer_closed(int error) override;
  void on_send_complete(int result) override;
  void on_released() override;
  // FileCompletion: the connect
  void on_file_complete(uint8_t tag, int result) override;

 private:
  class Alarm final : public runtime::Timer {
   public:
    Alarm(NodeConnection& node, void (NodeConnection::*fire)()) : node_(node), fire_(fire) {}
    void on_expire() override { (node_.*fire_)(); }

   private:
    NodeConnection& node_;
    void (NodeConnection::*fire_)();
  };
  static constexpr uint8_t kConnectTag = 1;

  void on_connect_timeout();
  void on_reconnect_due();
  bool has_room(size_t bytes, uint32_t replies) const;
  void push_expected(const ExpectedReply& expected);
  void lost(std::string_view why, bool quietly);

  runtime::Reactor& reactor_;
  NodeListener& listener_;
  const NodeAddress address_;
  const std::string host_port_;
  const runtime::SocketAddress socket_address_;  // read by the kernel during a connect
  const int64_t connect_timeout_ms_;
  const size_t max_pending_bytes_;
  runtime::CoreCounter& sends_;  // the client's: every send handed to the kernel
  State state_ = State::kIdle;
  int fd_ = -1;  // between socket() and attach()
  runtime::SocketId socket_{};
  bool connect_in_flight_ = false;
  bool connect_when_released_ = false;
  bool send_in_flight_ = false;
  std::string pending_;  // queued while a send is in flight
  std::string sending_;  // handed to the kernel; stays untouched until on_send_complete
  size_t sent_bytes_ = 0;
  std::vector<ExpectedReply> expected_;  // a ring: what each reply still to come answers
  uint32_t expected_head_ = 0;
  uint32_t expected_count_ = 0;
  RespReader reader_;
  Alarm connect_timer_{*this, &NodeConnection::on_connect_timeout};
  Alarm reconnect_timer_{*this, &NodeConnection::on_reconnect_due};
};

}  // namespace redis_cluster
