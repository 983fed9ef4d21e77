#include "runtime/reactor.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"

namespace runtime {

namespace {
constexpr uint16_t kBufferGroup = 0;

struct SetupAttempt {
  unsigned flags;
  std::string_view name;
};
// Best first. SINGLE_ISSUER and DEFER_TASKRUN (6.1+) let the kernel skip locking and run
// completion work only when we ask for events; COOP_TASKRUN (5.19+) at least avoids IPIs.
constexpr SetupAttempt kSetupAttempts[] = {
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SUBMIT_ALL,
     "single_issuer+defer_taskrun"},
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
     "single_issuer+coop_taskrun"},
    {IORING_SETUP_COOP_TASKRUN, "coop_taskrun"},
    {0, "plain"},
};
}  // namespace

Reactor::Reactor(uint32_t index, Mailbox& mailbox, const Clock& clock, const ReactorConfig& config)
    : index_(index),
      mailbox_(mailbox),
      clock_(clock),
      config_(config),
      timers_(clock.monotonic_ms(), config.tick_ms),
      slots_(config.max_sockets),
      wake_pending_(mailbox.cores(), 0) {
  free_slots_.reserve(config.max_sockets);
  for (uint32_t i = config.max_sockets; i > 0; --i) free_slots_.push_back(i - 1);
}

absl::Status Reactor::init() {
  int last_error = 0;
  for (const SetupAttempt& attempt : kSetupAttempts) {
    io_uring_params params;
    std::memset(&params, 0, sizeof(params));
    params.flags = attempt.flags | IORING_SETUP_CQSIZE;
    params.cq_entries = config_.ring_entries * 4;
    last_error = io_uring_queue_init_params(config_.ring_entries, &ring_, &params);
    if (last_error == 0) {
      setup_mode_ = attempt.name;
      deferred_task_run_ = (attempt.flags & IORING_SETUP_DEFER_TASKRUN) != 0;
      break;
    }
  }
  if (last_error != 0) return absl::ErrnoToStatus(-last_error, "io_uring_queue_init");
  ring_ready_ = true;
  if (absl::Status s = buffers_.init(&ring_, kBufferGroup, config_.recv_buffer_count,
                                     config_.recv_buffer_bytes);
      !s.ok()) {
    return s;
  }
  mailbox_.set_ring_fd(index_, ring_.ring_fd);
  return absl::OkStatus();
}

Reactor::~Reactor() {
  // Plain system calls are fine here: the loop has ended.
  for (Listener& l : listeners_) {
    if (l.fd >= 0) ::close(l.fd);
  }
  for (SocketSlot& s : slots_) {
    if (s.fd >= 0 && !s.close_submitted) ::close(s.fd);
  }
  if (ring_ready_) {
    mailbox_.set_ring_fd(index_, -1);
    io_uring_queue_exit(&ring_);
  }
}

io_uring_sqe* Reactor::next_sqe() {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  while (sqe == nullptr) {
    // Submission queue full: hand what we have to the kernel and take a fresh entry.
    io_uring_submit(&ring_);
    sqe = io_uring_get_sqe(&ring_);
  }
  return sqe;
}

Reactor::SocketSlot* Reactor::live_slot(SocketId id) {
  if (id.slot >= slots_.size()) return nullptr;
  SocketSlot& s = slots_[id.slot];
  if (s.generation != id.generation || s.fd < 0) return nullptr;
  return &s;
}

void Reactor::listen(int listen_fd, Acceptor& acceptor) {
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
  io_uring_prep_recv_multishot(sqe, s.fd, nullptr, 0, 0);
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

bool Reactor::post(uint32_t to_core, const Message& message) {
  Message m = message;
  m.from_core = index_;
  if (!mailbox_.queue(index_, to_core).push(m)) return false;
  wake_pending_[to_core] = 1;
  any_wake_pending_ = true;
  return true;
}

void Reactor::flush_wakes() {
  if (!any_wake_pending_) return;
  any_wake_pending_ = false;
  for (uint32_t core = 0; core < wake_pending_.size(); ++core) {
    if (!wake_pending_[core]) continue;
    wake_pending_[core] = 0;
    if (core == index_) {
      drain_mailbox();
      continue;
    }
    const int fd = mailbox_.ring_fd(core);
    if (fd < 0) continue;  // that core has stopped; its tick-less queue is never read again
    last_cross_core_ns_ = clock_.monotonic_ns();
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_msg_ring(sqe, fd, 0, user_data(Op::kWake, 0, index_), 0);
    sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
    io_uring_sqe_set_data64(sqe, user_data(Op::kWakeSent, 0, core));
  }
}

void Reactor::drain_mailbox() {
  bool from_other_core = false;
  for (uint32_t from = 0; from <= mailbox_.cores(); ++from) {
    SpscQueue<Message>& queue = mailbox_.queue(from, index_);
    while (std::optional<Message> m = queue.pop()) {
      from_other_core |= from != index_ && from < mailbox_.cores();
      m->run(*this, *m);
    }
  }
  if (from_other_core) last_cross_core_ns_ = clock_.monotonic_ns();
}

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}
}  // namespace

bool Reactor::poll_mailbox_before_sleep(int64_t now_ns) {
  if (config_.idle_poll_ns <= 0) return false;
  const int64_t until = last_cross_core_ns_ + config_.idle_poll_ns;
  if (now_ns >= until) return false;
  io_uring_submit(&ring_);  // the kernel gets this iteration's work before we poll
  for (uint32_t spins = 1;; ++spins) {
    for (uint32_t from = 0; from <= mailbox_.cores(); ++from) {
      if (mailbox_.queue(from, index_).has_items()) return true;
    }
    if ((spins & 63) == 0) {
      // A socket's completions end the poll too. With DEFER_TASKRUN they reach the
      // completion queue only when the ring is entered: a non-blocking enter every 64
      // spins (a few microseconds), only while polling.
      if (deferred_task_run_) io_uring_get_events(&ring_);
      if (io_uring_cq_ready(&ring_) > 0) return false;
      if (clock_.monotonic_ns() >= until) return false;
    }
    cpu_relax();
  }
}

void Reactor::arm_tick() {
  tick_spec_.tv_sec = config_.tick_ms / 1000;
  tick_spec_.tv_nsec = (config_.tick_ms % 1000) * 1'000'000;
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_timeout(sqe, &tick_spec_, 0, 0);
  io_uring_sqe_set_data64(sqe, user_data(Op::kTick, 0, 0));
}

void Reactor::on_tick() {
  if (accept_rearm_pending_) {
    accept_rearm_pending_ = false;
    for (uint32_t i = 0; i < listeners_.size(); ++i) arm_accept(i);
  }
  timers_.advance(clock_.monotonic_ms());
  // A missed wake-up (a kernel that cannot post to this ring) costs at most one tick.
  drain_mailbox();
  if (!stopping_) arm_tick();
}

void Reactor::write(int fd, const char* data, size_t length, uint64_t offset, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_write(sqe, fd, data, static_cast<unsigned>(length), offset);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::sync_data(int fd, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::open(const char* path, int flags, unsigned mode, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_openat(sqe, AT_FDCWD, path, flags, mode);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::close(int fd, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_close(sqe, fd);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::rename(const char* from, const char* to, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_renameat(sqe, AT_FDCWD, from, AT_FDCWD, to, 0);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::unlink(const char* path, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_unlinkat(sqe, AT_FDCWD, path, 0);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::remove_loop_hook(LoopHook& hook) {
  std::erase(loop_hooks_, &hook);
}

void Reactor::run() {
  stopping_ = false;  // a reactor may be run again after a stop (tests do)
  arm_tick();
  drain_mailbox();
  // The clock is read twice when the loop runs dry and once per turn otherwise (the turn's
  // start, for overload shedding: a vDSO read beside the io_uring_enter it follows).
  busy_since_ns_ = clock_.monotonic_ns();
  turn_started_ns_ = busy_since_ns_;
  while (!stopping_) {
    for (size_t i = 0; i < loop_hooks_.size(); ++i) loop_hooks_[i]->before_wait();
    flush_wakes();
    if (io_uring_cq_ready(&ring_) == 0) {
      const int64_t wait_from_ns = clock_.monotonic_ns();
      load_.busy_ns.add(static_cast<uint64_t>(wait_from_ns - busy_since_ns_));
      const bool message = poll_mailbox_before_sleep(wait_from_ns);
      if (!message) submit_and_wait();
      busy_since_ns_ = clock_.monotonic_ns();
      turn_started_ns_ = busy_since_ns_;
      load_.wait_ns.add(static_cast<uint64_t>(busy_since_ns_ - wait_from_ns));
      if (message) {
        drain_mailbox();
        continue;  // what the messages queued goes out at the top of the loop
      }
    } else {
      submit_and_wait();  // returns at once: completions are waiting
      turn_started_ns_ = clock_.monotonic_ns();
    }
    unsigned head;
    unsigned seen = 0;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      dispatch(*cqe);
      ++seen;
    }
    io_uring_cq_advance(&ring_, seen);
  }
  for (size_t i = 0; i < loop_hooks_.size(); ++i) loop_hooks_[i]->before_wait();
  flush_wakes();
  io_uring_submit(&ring_);
}

void Reactor::submit_and_wait() {
  const int rc = io_uring_submit_and_wait(&ring_, 1);
  if (rc < 0 && rc != -EINTR && rc != -ETIME && rc != -EBUSY && rc != -EAGAIN) {
    // Nothing sensible can continue without the ring.
    std::fprintf(stderr, "decisiond: core %u: io_uring_enter failed: %s\n", index_, std::strerror(-rc));
    std::abort();
  }
}

void Reactor::dispatch(const io_uring_cqe& cqe) {
  const uint64_t data = cqe.user_data;
  const Op op = static_cast<Op>(data >> 56);
  const uint32_t generation = static_cast<uint32_t>(data >> 32) & 0xffffff;
  const uint32_t slot = static_cast<uint32_t>(data);
  switch (op) {
    case Op::kAccept:
      on_accept(slot, cqe);
      return;
    case Op::kTick:
      on_tick();
      return;
    case Op::kWake:
      drain_mailbox();
      return;
    case Op::kFile: {
      // Sign-extend nothing: user-space addresses have the top 16 bits clear.
      auto* done = reinterpret_cast<FileCompletion*>(data & 0xffff'ffff'ffffull);
      done->on_file_complete(static_cast<uint8_t>(data >> 48), cqe.res);
      return;
    }
    case Op::kWakeSent:
      // Only failures arrive here (success is skipped): retry on the next iteration;
      // the receiver's tick drains its queues anyway.
      if (cqe.res < 0 && slot < wake_pending_.size()) {
        wake_pending_[slot] = 1;
        any_wake_pending_ = true;
      }
      return;
    default:
      break;
  }
  if (slot == UINT32_MAX) return;  // listener cancel or close
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
  if (cqe.flags & IORING_CQE_F_BUFFER) {
    const uint16_t buffer_id = static_cast<uint16_t>(cqe.flags >> IORING_CQE_BUFFER_SHIFT);
    buffers_.take(buffer_id);
    if (cqe.res > 0 && !s.closing) {
      s.events->on_receive(buffers_.view(buffer_id, static_cast<uint32_t>(cqe.res)));
    }
    buffers_.recycle(buffer_id);
  }
  if (more) return;
  // The multishot receive has ended.
  s.receiving = false;
  if (!s.closing) {
    if (cqe.res > 0 || cqe.res == -ENOBUFS) {
      // Not the end of the stream: the kernel stopped the multishot (every provided
      // buffer in use within one batch, or a full completion queue). Buffers are back now.
      DECISIOND_CHECK_MSG(s.in_flight > 0, "receive ended with none in flight");
      --s.in_flight;
      arm_recv(slot);
      return;
    }
    s.events->on_peer_closed(cqe.res);
  }
  finish_op(slot);
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
