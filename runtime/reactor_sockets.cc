// Sockets on the reactor: listeners, the slot table, and each socket's operations in the
// ring, counted so that a slot is reused only once nothing of its last use is in flight.
#include "runtime/reactor.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "runtime/check.h"

namespace runtime {

Reactor::SocketSlot* Reactor::live_slot(SocketId id) {
  if (id.slot >= slots_.size()) return nullptr;
  SocketSlot& s = slots_[id.slot];
  if (s.generation != id.generation || s.fd < 0) return nullptr;
  return &s;
}

namespace {
// What every multishot recvmsg asks for: no address, room for one timestamp. The kernel
// only reads it; one for every socket of every core.
msghdr receive_template() {
  msghdr m{};
  m.msg_controllen = CMSG_SPACE(sizeof(timespec));
  return m;
}
msghdr kReceiveMessage = receive_template();
// An arrival time further back than this is a wall clock that stepped, not a wait.
constexpr int64_t kArrivalPlausibleNs = 10'000'000'000;
}  // namespace

void Reactor::listen(int listen_fd, Acceptor& acceptor) {
  if (receive_timestamps_) {
    // Accepted sockets inherit it: each receive then carries its bytes' arrival time.
    const int on = 1;
    setsockopt(listen_fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on));
  }
  listeners_.push_back(Listener{listen_fd, &acceptor, false});
  arm_accept(static_cast<uint32_t>(listeners_.size() - 1));
}

void Reactor::arm_accept(uint32_t listener) {
  Listener& l = listeners_[listener];
  if (l.fd < 0 || l.accepting) return;
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_multishot_accept(sqe, l.fd, nullptr, nullptr, SOCK_CLOEXEC);
  io_uring_sqe_set_data64(sqe, user_data(Op::kAccept, 0, listener));
  l.accepting = true;
}

void Reactor::stop_listening() {
  for (uint32_t i = 0; i < listeners_.size(); ++i) {
    Listener& l = listeners_[i];
    if (l.fd < 0) continue;
    if (l.accepting) {
      io_uring_sqe* sqe = next_sqe();
      io_uring_prep_cancel64(sqe, user_data(Op::kAccept, 0, i), 0);
      io_uring_sqe_set_data64(sqe, user_data(Op::kCancel, 0, UINT32_MAX));
    }
    close_fd(l.fd);
    l.fd = -1;
  }
}

void Reactor::close_fd(int fd) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_close(sqe, fd);
  io_uring_sqe_set_data64(sqe, user_data(Op::kClose, 0, UINT32_MAX));
}

std::optional<SocketId> Reactor::attach(int fd, SocketEvents& events) {
  if (free_slots_.empty()) {
    close_fd(fd);
    return std::nullopt;
  }
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  SocketSlot& s = slots_[slot];
  // A slot on the free list with a descriptor or an operation still in the ring would be
  // handed to two connections at once.
  DECISIOND_CHECK_MSG(s.fd < 0 && s.in_flight == 0, "free socket slot still in use");
  DECISIOND_CHECK_MSG(sockets_in_use_ < slots_.size(), "more sockets in use than slots");
  ++sockets_in_use_;
  s.fd = fd;
  s.events = &events;
  s.in_flight = 0;
  s.receiving = false;
  s.closing = false;
  s.close_submitted = false;
  s.shutdown_pending = false;
  s.send_pending = false;
  arm_recv(slot);
  return SocketId{slot, s.generation};
}

void Reactor::arm_recv(uint32_t slot) {
  SocketSlot& s = slots_[slot];
  io_uring_sqe* sqe = next_sqe();
  if (receive_timestamps_) {
    io_uring_prep_recvmsg_multishot(sqe, s.fd, &kReceiveMessage, 0);
  } else {
    io_uring_prep_recv_multishot(sqe, s.fd, nullptr, 0, 0);
  }
  sqe->flags |= IOSQE_BUFFER_SELECT;
  sqe->buf_group = buffers_.group_id();
  io_uring_sqe_set_data64(sqe, user_data(Op::kRecv, s.generation, slot));
  s.receiving = true;
  begin_op(s);
}

void Reactor::send(SocketId id, const char* data, size_t length) {
  SocketSlot* s = live_slot(id);
  if (s == nullptr || s->closing) return;
  // Two sends in the ring at once may complete out of order: the bytes would interleave.
  DECISIOND_CHECK_MSG(!s->send_pending, "a second send on a socket before the first completed");
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_send(sqe, s->fd, data, length, MSG_NOSIGNAL);
  io_uring_sqe_set_data64(sqe, user_data(Op::kSend, s->generation, id.slot));
  s->send_pending = true;
  begin_op(*s);
}

void Reactor::shutdown_write(SocketId id) {
  SocketSlot* s = live_slot(id);
  if (s == nullptr || s->closing || s->shutdown_pending) return;
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_shutdown(sqe, s->fd, SHUT_WR);
  io_uring_sqe_set_data64(sqe, user_data(Op::kShutdown, s->generation, id.slot));
  s->shutdown_pending = true;
  begin_op(*s);
}

void Reactor::close(SocketId id) {
  SocketSlot* s = live_slot(id);
  if (s == nullptr || s->closing) return;
  s->closing = true;
  if (s->receiving) {
    // Closing the descriptor does not end a multishot receive: the request holds its own
    // reference to the file. Cancel it by its user data.
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_cancel64(sqe, user_data(Op::kRecv, s->generation, id.slot), 0);
    io_uring_sqe_set_data64(sqe, user_data(Op::kCancel, s->generation, id.slot));
    begin_op(*s);
  }
  if (!s->shutdown_pending) submit_close(id.slot);  // else when the shutdown completes
}

void Reactor::submit_close(uint32_t slot) {
  SocketSlot& s = slots_[slot];
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_close(sqe, s.fd);
  io_uring_sqe_set_data64(sqe, user_data(Op::kClose, s.generation, slot));
  s.close_submitted = true;
  begin_op(s);
}

void Reactor::begin_op(SocketSlot& s) {
  // in_flight is a uint8_t: past its bound it would wrap, and the slot be freed (and
  // reused) while operations on it are still in the ring.
  DECISIOND_CHECK_MSG(s.in_flight < kMaxSocketOps, "more operations in flight on a socket than it can have");
  ++s.in_flight;
}

void Reactor::finish_op(uint32_t slot) {
  SocketSlot& s = slots_[slot];
  DECISIOND_CHECK_MSG(s.in_flight > 0, "socket operation completed with none in flight");
  --s.in_flight;
  if (s.in_flight == 0 && s.close_submitted) {
    DECISIOND_CHECK_MSG(sockets_in_use_ > 0 && free_slots_.size() < slots_.size(), "socket slot released twice");
    SocketEvents* events = s.events;
    s.fd = -1;
    s.events = nullptr;
    ++s.generation;
    free_slots_.push_back(slot);
    --sockets_in_use_;
    events->on_released();
  }
}

void Reactor::on_socket_completion(Op op, uint32_t generation, uint32_t slot, const io_uring_cqe& cqe) {
  // Socket user data is ours: a slot past the table means it was corrupted on the way.
  DECISIOND_CHECK_MSG(slot < slots_.size(), "completion for a socket slot out of range");
  if ((slots_[slot].generation & 0xffffff) != generation) return;
  SocketSlot& s = slots_[slot];
  switch (op) {
    case Op::kRecv:
      on_recv(slot, cqe);
      return;
    case Op::kSend:
      s.send_pending = false;
      // Report before releasing so the owner sees the send end before on_released.
      if (!s.closing) s.events->on_send_complete(cqe.res);
      finish_op(slot);
      return;
    case Op::kShutdown:
      s.shutdown_pending = false;
      if (s.closing && !s.close_submitted) submit_close(slot);
      finish_op(slot);
      return;
    case Op::kCancel:
    case Op::kClose:
      finish_op(slot);
      return;
    default:
      return;
  }
}

void Reactor::on_recv(uint32_t slot, const io_uring_cqe& cqe) {
  SocketSlot& s = slots_[slot];
  const bool more = (cqe.flags & IORING_CQE_F_MORE) != 0;
  // The bytes received: cqe.res of them for recv; for recvmsg, the payload after its header
  // (cqe.res counts both, so a recvmsg at the end of the stream still has a positive res).
  size_t received = cqe.res > 0 ? static_cast<size_t>(cqe.res) : 0;
  if (cqe.flags & IORING_CQE_F_BUFFER) {
    const uint16_t buffer_id = static_cast<uint16_t>(cqe.flags >> IORING_CQE_BUFFER_SHIFT);
    buffers_.take(buffer_id);
    if (cqe.res > 0) {
      std::string_view bytes = buffers_.view(buffer_id, static_cast<uint32_t>(cqe.res));
      if (receive_timestamps_) {
        io_uring_recvmsg_out* out =
            io_uring_recvmsg_validate(const_cast<char*>(bytes.data()), cqe.res, &kReceiveMessage);
        DECISIOND_CHECK_MSG(out != nullptr, "a multishot recvmsg buffer without its header");
        receiving_since_ns_ = arrival_of(out);
        bytes = std::string_view(static_cast<const char*>(io_uring_recvmsg_payload(out, &kReceiveMessage)),
                                 io_uring_recvmsg_payload_length(out, cqe.res, &kReceiveMessage));
      }
      received = bytes.size();
      if (!bytes.empty() && !s.closing) s.events->on_receive(bytes);
      receiving_since_ns_ = 0;
    }
    buffers_.recycle(buffer_id);
  }
  if (more) return;
  // The multishot receive has ended.
  s.receiving = false;
  if (!s.closing) {
    if (received > 0 || cqe.res == -ENOBUFS) {
      // Not the end of the stream: the kernel stopped the multishot (every provided
      // buffer in use within one batch, or a full completion queue). Buffers are back now.
      DECISIOND_CHECK_MSG(s.in_flight > 0, "receive ended with none in flight");
      --s.in_flight;
      arm_recv(slot);
      return;
    }
    s.events->on_peer_closed(cqe.res > 0 ? 0 : cqe.res);
  }
  finish_op(slot);
}

int64_t Reactor::arrival_of(io_uring_recvmsg_out* out) const {
  for (cmsghdr* c = io_uring_recvmsg_cmsg_firsthdr(out, &kReceiveMessage); c != nullptr;
       c = io_uring_recvmsg_cmsg_nexthdr(out, &kReceiveMessage, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec at;
    std::memcpy(&at, CMSG_DATA(c), sizeof(at));
    const int64_t arrived = at.tv_sec * 1'000'000'000 + at.tv_nsec - wall_minus_monotonic_ns_;
    // Never later than the turn that posted it (clock granularity), never implausibly old.
    if (arrived > turn_started_ns_ || turn_started_ns_ - arrived > kArrivalPlausibleNs) return turn_started_ns_;
    return arrived;
  }
  return 0;
}

void Reactor::on_accept(uint32_t listener, const io_uring_cqe& cqe) {
  DECISIOND_CHECK_MSG(listener < listeners_.size(), "accept for a listener out of range");
  Listener& l = listeners_[listener];
  if (cqe.res >= 0) {
    if (l.fd >= 0) {
      l.acceptor->on_accept(cqe.res);
    } else {  // raced with stop_listening
      close_fd(cqe.res);
    }
  }
  if (!(cqe.flags & IORING_CQE_F_MORE)) {
    l.accepting = false;
    // Errors such as EMFILE end the multishot. Accept again on the next tick rather than
    // go deaf, or spin while descriptors are short.
    accept_rearm_pending_ = true;
  }
}

}  // namespace runtime
