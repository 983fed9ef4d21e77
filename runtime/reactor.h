#pragma once
// One reactor per core: an io_uring, its provided receive buffers, a timer wheel and the
// receiving end of the mailbox. Everything a core does happens on its reactor's thread;
// the reactor knows bytes and file descriptors, nothing of what they carry.
#include <liburing.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "runtime/buffer_ring.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/mailbox.h"
#include "runtime/socket_io.h"
#include "runtime/message.h"
#include "runtime/one_way_post.h"
#include "runtime/spare_buffers.h"
#include "runtime/timer_wheel.h"

namespace runtime {

struct ReactorConfig {
  uint32_t ring_entries = 2048;
  uint32_t recv_buffer_count = 1024;  // power of two
  uint32_t recv_buffer_bytes = 8192;
  uint32_t max_sockets = 16384;  // connections a core can hold, listeners excluded
  int64_t tick_ms = 100;         // timer wheel resolution
  // For this long after a message went to or came from another core, the reactor watches
  // its mailbox (and its ring) before sleeping: the answer to a forwarded request is
  // usually a microsecond away, while a wake-up through the kernel costs tens of
  // microseconds on a VM. A core with no cross-core traffic never polls. 0: never.
  int64_t idle_poll_ns = 50'000;
  // Where io_uring's workers for this ring run (CpuPlan::others): the writes the kernel
  // cannot finish inline, every fdatasync, file opens and closes. Empty: where the kernel
  // puts them, which for a pinned reactor is its own CPU.
  std::vector<int> worker_cpus;
};


// Where a reactor's wall time goes, in monotonic nanoseconds: waiting is the time from
// finding no completion ready to having work again (the mailbox poll before sleeping and
// the sleep in io_uring_enter), busy is everything else. Utilisation is
// busy / (busy + wait). Each stretch is added when it ends, so a loop that never runs dry
// reports its busy time at its next wait. Single writer (the reactor), read by scrapes.
struct ReactorLoad {
  CoreCounter busy_ns;
  CoreCounter wait_ns;
};


class Acceptor {
 public:
  virtual ~Acceptor() = default;
  // A new connected socket; the callee owns fd (usually by attach()).
  virtual void on_accept(int fd) = 0;
};

class Reactor final : public FileIo, public SocketIo {
 public:
  Reactor(uint32_t index, Mailbox& mailbox, const Clock& clock, const ReactorConfig& config);
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;
  ~Reactor();

  // Must run on the thread that will call run(): the ring is single-issuer.
  absl::Status init();

  uint32_t index() const { return index_; }
  uint32_t cores() const { return mailbox_.cores(); }
  const Clock& clock() const { return clock_; }
  TimerWheel& timers() { return timers_; }
  // The buffers this core's connections borrow while busy (runtime/spare_buffers.h).
  SpareBuffers& spare_buffers() { return spare_buffers_; }
  // How the ring was set up, for the start-up log line and metrics.
  std::string_view setup_mode() const { return setup_mode_; }
  uint32_t sockets_in_use() const { return sockets_in_use_; }
  const ReactorLoad& load() const { return load_; }
  // When the current turn of the loop began: the loop's last return from the kernel with
  // new completions (monotonic ns). Now minus this is the loop's lag, what overload
  // shedding measures (http/limits.h shed_lag_ns): whatever arrived since then waits at
  // least that long, and a turn that keeps admitting work past the bound makes every
  // request behind it late. Taken at every return from the kernel, not only after the loop
  // found nothing ready: whether a busy loop finds its completion queue empty at the top of
  // a turn is an accident of the ring's mode (with DEFER_TASKRUN completions appear only
  // when the ring is entered, but sends completed inline by a mid-turn submit are already
  // there); counted from an empty queue only, the lag would at times grow across turns and
  // shed every decision, even those that had waited a millisecond.
  int64_t turn_started_ns() const { return turn_started_ns_; }
  // The latest time the work being handled can have begun waiting (monotonic ns): during a
  // receive, when its bytes reached the socket (the kernel's receive timestamp), else the
  // turn's start. Now minus this is what overload shedding measures (http/limits.h
  // shed_lag_ns). The turn's start alone misses where requests wait at overload: with
  // DEFER_TASKRUN the kernel posts a bounded batch per entry (80 completions, measured on
  // 6.18) and holds the rest in its own list, so at 2,000 busy connections a turn lasted
  // 0.7 ms while requests waited 46 ms behind it, and nothing was shed.
  int64_t waiting_since_ns() const { return receiving_since_ns_ != 0 ? receiving_since_ns_ : turn_started_ns_; }

  // Takes ownership of a listening socket and accepts on it (multishot) until
  // stop_listening().
  void listen(int listen_fd, Acceptor& acceptor);
  void stop_listening();

  // Starts receiving on fd. nullopt when the socket table is full; fd is closed then.
  std::optional<SocketId> attach(int fd, SocketEvents& events) override;
  // One send at a time per socket; data must stay valid until on_send_complete.
  void send(SocketId id, const char* data, size_t length) override;
  // Sends FIN after queued data; receiving goes on (for a lingering close).
  void shutdown_write(SocketId id) override;
  // Stops receiving and closes; on_released follows once nothing is in flight.
  void close(SocketId id) override;
  // Closes a descriptor that was never attached.
  void close_fd(int fd) override;

  // Queues a message for another core (or this one) and wakes it at the end of this
  // loop iteration. False when that queue is full: the caller decides (cross-core asks,
  // whose budget makes room for every answer).
  [[nodiscard]] bool post(uint32_t to_core, const Message& message);
  // A message that wants no answer (one_way_post.h): queued as post() does while this
  // core's share of that queue has room, else kept in its outbox and posted on a later
  // loop turn. Never refused.
  void post_one_way(uint32_t to_core, const Message& message);
  // This core's one-way messages still in its outbox.
  uint32_t one_way_kept() const { return one_way_.kept(); }
  const OneWayCounters& one_way_counters() const { return mailbox_.one_way_counters(index_); }

  // FileIo: file operations through this core's ring.
  void write(int fd, const char* data, size_t length, uint64_t offset, FileCompletion& done, uint8_t tag) override;
  void sync_data(int fd, FileCompletion& done, uint8_t tag) override;
  void open(const char* path, int flags, unsigned mode, FileCompletion& done, uint8_t tag) override;
  void close(int fd, FileCompletion& done, uint8_t tag) override;
  void rename(const char* from, const char* to, FileCompletion& done, uint8_t tag) override;
  void unlink(const char* path, FileCompletion& done, uint8_t tag) override;
  void add_loop_hook(LoopHook& hook) override { loop_hooks_.push_back(&hook); }

  // Outgoing connections and precise wakes (reactor_async.cc), completed like the file
  // operations: done.on_file_complete(tag, result) on this thread.
  // Connects fd (a socket the caller made) to addr: 0 or -errno. addr must stay valid until
  // the completion (the kernel may read it when the operation runs, not when submitted).
  void connect(int fd, const sockaddr* addr, socklen_t length, FileCompletion& done, uint8_t tag);
  // Completes with -ETIME once `relative` has passed (-ECANCELED when cancelled): for
  // deadlines finer than the timer wheel's tick. The timespec must stay valid until the
  // completion.
  void wake_after(const __kernel_timespec& relative, FileCompletion& done, uint8_t tag);
  // Asks the ring to cancel the operation submitted with (done, tag); that operation still
  // completes (usually with -ECANCELED, or its own result if it won the race), so its
  // owner waits for that completion before reusing what it gave the kernel.
  void cancel(FileCompletion& done, uint8_t tag);
  void remove_loop_hook(LoopHook& hook) override;

  void run();
  void request_stop() { stopping_ = true; }
  bool stopping() const { return stopping_; }

  // The user data that wakes a reactor when posted to its ring by IORING_OP_MSG_RING.
  static uint64_t wake_token() { return user_data(Op::kWake, 0, UINT32_MAX); }

 private:
  enum class Op : uint8_t { kAccept = 1, kRecv, kSend, kCancel, kShutdown, kClose, kTick, kWake, kWakeSent, kFile };

  // Per socket at most: the receive, one send, the shutdown, the receive's cancel, the close.
  static constexpr uint8_t kMaxSocketOps = 5;
  struct SocketSlot {
    int fd = -1;
    SocketEvents* events = nullptr;
    uint32_t generation = 0;
    uint8_t in_flight = 0;  // operations whose completion is still to come
    bool receiving = false;
    bool closing = false;
    bool close_submitted = false;
    // IORING_OP_SHUTDOWN always runs in an io-wq worker, which looks the descriptor number
    // up only then: closing before it completes could let it shut down whatever socket
    // reused the number. The close waits for it.
    bool shutdown_pending = false;
    bool send_pending = false;  // one send at a time (send())
  };
  struct Listener {
    int fd = -1;
    Acceptor* acceptor = nullptr;
    bool accepting = false;
  };

  static uint64_t user_data(Op op, uint32_t generation, uint32_t slot) {
    return (uint64_t{static_cast<uint8_t>(op)} << 56) | (uint64_t{generation & 0xffffff} << 32) | slot;
  }
  io_uring_sqe* next_sqe();
  // File operations carry their completion object's address (48 bits on x86-64 and
  // arm64) and the caller's tag in the user data.
  static uint64_t file_user_data(FileCompletion& done, uint8_t tag) {
    return (uint64_t{static_cast<uint8_t>(Op::kFile)} << 56) | (uint64_t{tag} << 48) |
           (reinterpret_cast<uintptr_t>(&done) & 0xffff'ffff'ffffull);
  }
  SocketSlot* live_slot(SocketId id);
  void arm_accept(uint32_t listener);
  void arm_recv(uint32_t slot);
  void arm_tick();
  void submit_close(uint32_t slot);
  void begin_op(SocketSlot& slot);
  void finish_op(uint32_t slot);
  void dispatch(const io_uring_cqe& cqe);
  // A completion of a socket operation (not a listener's): slot and generation from its user data.
  void on_socket_completion(Op op, uint32_t generation, uint32_t slot, const io_uring_cqe& cqe);
  void on_recv(uint32_t slot, const io_uring_cqe& cqe);
  void on_accept(uint32_t listener, const io_uring_cqe& cqe);
  void on_tick();
  void drain_mailbox();
  void flush_wakes();
  // The outbox's turn (one_way_post.h): at the top of every loop turn, before the wakes.
  void post_kept_one_way() {
    if (one_way_.keeps_any()) one_way_.post_kept([this](uint32_t core) { mark_wake(core); });
  }
  void mark_wake(uint32_t core) {
    wake_pending_[core] = 1;
    any_wake_pending_ = true;
  }
  // Polls the mailbox for up to idle_poll_ns; whether a message came. now_ns: the clock
  // as the loop found nothing to do.
  bool poll_mailbox_before_sleep(int64_t now_ns);
  // Submits what is queued and waits for at least one completion.
  void submit_and_wait();
  // The monotonic time of a receive's arrival, from its message's control data; 0 if none.
  int64_t arrival_of(io_uring_recvmsg_out* out) const;

  const uint32_t index_;
  Mailbox& mailbox_;
  const Clock& clock_;
  const ReactorConfig config_;
  io_uring ring_{};
  bool ring_ready_ = false;
  std::string_view setup_mode_ = "none";
  BufferRing buffers_;
  TimerWheel timers_;
  SpareBuffers spare_buffers_;
  __kernel_timespec tick_spec_{};
  std::vector<SocketSlot> slots_;
  std::vector<uint32_t> free_slots_;
  uint32_t sockets_in_use_ = 0;
  std::vector<Listener> listeners_;
  std::vector<uint8_t> wake_pending_;  // per target core, set by post()
  OneWayPosts one_way_;
  bool any_wake_pending_ = false;
  bool accept_rearm_pending_ = false;
  bool stopping_ = false;
  bool deferred_task_run_ = false;      // completions appear only when the ring is entered
  int64_t last_cross_core_ns_ = INT64_MIN / 2;  // last message sent to or taken from another core
  std::vector<LoopHook*> loop_hooks_;
  ReactorLoad load_;
  int64_t busy_since_ns_ = 0;    // last return from finding nothing ready: load accounting
  int64_t turn_started_ns_ = 0;  // last return from the kernel: overload shedding
  // Receives carry the kernel's arrival time (recvmsg with SO_TIMESTAMPNS, in DEFER_TASKRUN
  // mode: 6.1+, where multishot recvmsg is there too).
  bool receive_timestamps_ = false;
  int64_t receiving_since_ns_ = 0;    // the current receive's arrival, 0 outside one
  int64_t wall_minus_monotonic_ns_ = 0;  // for the arrival times, which are wall-clock
};

}  // namespace runtime
