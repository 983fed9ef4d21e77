#include "redis_cluster/node_connection.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "runtime/check.h"

namespace redis_cluster {

NodeConnection::NodeConnection(runtime::Reactor& reactor, NodeListener& listener, NodeAddress address,
                               runtime::SocketAddress socket_address, int64_t connect_timeout_ms,
                               size_t max_pending_bytes, uint32_t max_expected, runtime::CoreCounter& sends)
    : reactor_(reactor),
      listener_(listener),
      address_(std::move(address)),
      host_port_(to_host_port(address_)),
      socket_address_(socket_address),
      connect_timeout_ms_(connect_timeout_ms),
      max_pending_bytes_(max_pending_bytes),
      sends_(sends),
      expected_(max_expected) {}

NodeConnection::~NodeConnection() {
  // Only the loop's end may leave a descriptor behind (a plain close is fine then).
  if (fd_ >= 0) ::close(fd_);
}

void NodeConnection::connect() {
  if (state_ == State::kClosing || connect_in_flight_) {
    connect_when_released_ = true;  // the last attempt's socket or connect is still in the ring
    return;
  }
  if (state_ != State::kIdle) return;
  reactor_.timers().cancel(reconnect_timer_);
  connect_when_released_ = false;
  // socket() and setsockopt() are plain system calls, made once per connection attempt
  // (never per command): io_uring's socket operation would save one syscall at a rare
  // moment at the price of a second completion to wait for.
  fd_ = ::socket(socket_address_.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) {
    lost(std::strerror(errno), false);
    return;
  }
  const int one = 1;
  // Pipelined commands leave in one send per turn already; Nagle would only delay them.
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  state_ = State::kConnecting;
  pending_.clear();
  sending_.clear();
  sent_bytes_ = 0;
  reader_.reset();
  listener_.on_node_connecting(*this);
  if (state_ != State::kConnecting) return;  // the listener gave up on it
  connect_in_flight_ = true;
  reactor_.connect(fd_, reinterpret_cast<const sockaddr*>(&socket_address_.storage), socket_address_.length, *this,
                   kConnectTag);
  reactor_.timers().schedule(connect_timer_, connect_timeout_ms_);
}

void NodeConnection::connect_after(int64_t delay_ms) {
  if (state_ == State::kIdle || state_ == State::kClosing) reactor_.timers().schedule(reconnect_timer_, delay_ms);
}

void NodeConnection::on_reconnect_due() { connect(); }

void NodeConnection::cancel_reconnect() {
  reactor_.timers().cancel(reconnect_timer_);
  connect_when_released_ = false;
}

void NodeConnection::on_connect_timeout() {
  // The connect is still in the ring: cancel it; its completion (-ECANCELED) ends the attempt.
  if (connect_in_flight_) reactor_.cancel(*this, kConnectTag);
}

void NodeConnection::on_file_complete(uint8_t tag, int result) {
  DECISIOND_CHECK_MSG(tag == kConnectTag && connect_in_flight_, "connect completion with no connect in flight");
  connect_in_flight_ = false;
  reactor_.timers().cancel(connect_timer_);
  if (state_ != State::kConnecting) {  // given up while connecting (fail, stop)
    if (fd_ >= 0) reactor_.close_fd(std::exchange(fd_, -1));
    if (connect_when_released_) connect();
    return;
  }
  if (result < 0) {
    lost(result == -ECANCELED ? "connect timed out" : std::strerror(-result), false);
    return;
  }
  const std::optional<runtime::SocketId> id = reactor_.attach(std::exchange(fd_, -1), *this);
  if (!id) {
    lost("the core's socket table is full", false);
    return;
  }
  socket_ = *id;
  state_ = State::kConnected;
  listener_.on_node_connected(*this);
  if (state_ == State::kConnected && !pending_.empty()) listener_.on_node_has_output(*this);
}

void NodeConnection::fail(std::string_view why, bool quietly) {
  if (state_ == State::kIdle || state_ == State::kClosing) return;
  lost(why, quietly);
}

void NodeConnection::lost(std::string_view why, bool quietly) {
  if (state_ == State::kConnected) {
    state_ = State::kClosing;
    reactor_.close(socket_);  // on_released follows
  } else {
    state_ = State::kIdle;
    if (connect_in_flight_) {
      reactor_.cancel(*this, kConnectTag);  // the descriptor is closed on its completion
    } else if (fd_ >= 0) {
      reactor_.close_fd(std::exchange(fd_, -1));
    }
  }
  reactor_.timers().cancel(connect_timer_);
  send_in_flight_ = false;  // a send still in the ring reports nothing once closing
  pending_.clear();
  if (!quietly) listener_.on_node_lost(*this, why);
  drop_expected([](const ExpectedReply&) {});
}

bool NodeConnection::has_room(size_t bytes, uint32_t replies) const {
  return accepts_commands() && pending_.size() + bytes <= max_pending_bytes_ &&
         expected_count_ + replies <= expected_.size();
}

void NodeConnection::push_expected(const ExpectedReply& expected) {
  DECISIOND_CHECK_MSG(expected_count_ < expected_.size(), "expected replies past their bound");
  expected_[(expected_head_ + expected_count_) % expected_.size()] = expected;
  ++expected_count_;
}

bool NodeConnection::enqueue(std::string_view bytes, const ExpectedReply& expected) {
  if (!has_room(bytes.size(), 1)) return false;
  pending_.append(bytes);
  push_expected(expected);
  if (state_ == State::kConnected) listener_.on_node_has_output(*this);
  return true;
}

bool NodeConnection::enqueue_pair(std::string_view first, const ExpectedReply& first_expected,
                                  std::string_view second, const ExpectedReply& second_expected) {
  if (!has_room(first.size() + second.size(), 2)) return false;
  pending_.append(first);
  pending_.append(second);
  push_expected(first_expected);
  push_expected(second_expected);
  if (state_ == State::kConnected) listener_.on_node_has_output(*this);
  return true;
}

void NodeConnection::flush() {
  if (state_ != State::kConnected || send_in_flight_ || pending_.empty()) return;
  // Swapped, not copied: both buffers keep their capacity from one send to the next.
  sending_.swap(pending_);
  pending_.clear();
  sent_bytes_ = 0;
  send_in_flight_ = true;
  sends_.add();
  reactor_.send(socket_, sending_.data(), sending_.size());
}

void NodeConnection::on_send_complete(int result) {
  send_in_flight_ = false;
  if (state_ != State::kConnected) return;
  if (result < 0) {
    lost(std::strerror(-result), false);
    return;
  }
  sent_bytes_ += static_cast<size_t>(result);
  if (sent_bytes_ < sending_.size()) {  // a short send: the rest goes before anything newer
    send_in_flight_ = true;
    sends_.add();
    reactor_.send(socket_, sending_.data() + sent_bytes_, sending_.size() - sent_bytes_);
    return;
  }
  sending_.clear();
  // Not sent from here: this completion is reaped mid-turn, and a send now would carry only
  // what the turn had gathered so far and hold the rest back a whole turn behind it. The
  // client's loop hook flushes once, when the turn has gathered everything.
  if (!pending_.empty()) listener_.on_node_has_output(*this);
}

void NodeConnection::on_receive(std::string_view bytes) {
  if (state_ != State::kConnected) return;
  if (!reader_.feed(bytes)) {
    lost("out of memory reading replies", false);
    return;
  }
  while (state_ == State::kConnected) {
    const RespReader::Result result = reader_.next();
    if (result == RespReader::Result::kNeedMore) return;
    if (result == RespReader::Result::kProtocolError || expected_count_ == 0) {
      lost(result == RespReader::Result::kProtocolError ? "protocol error" : "a reply nobody asked for", false);
      return;
    }
    const ExpectedReply expected = expected_[expected_head_];
    expected_head_ = (expected_head_ + 1) % expected_.size();
    --expected_count_;
    // The listener may queue more, fail this connection or stop the client: the loop
    // goes on only while the connection is still the one these bytes came from.
    listener_.on_node_reply(*this, expected, reader_.reply());
  }
}

void NodeConnection::on_peer_closed(int error) {
  if (state_ != State::kConnected) return;
  lost(error == 0 ? "closed by the node" : std::strerror(-error), false);
}

void NodeConnection::on_released() {
  DECISIOND_CHECK_MSG(state_ == State::kClosing, "socket released while not closing");
  state_ = State::kIdle;
  if (connect_when_released_) connect();
}

}  // namespace redis_cluster
