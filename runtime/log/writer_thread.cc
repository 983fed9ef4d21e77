#include "runtime/log/writer_thread.h"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "runtime/check.h"
#include "runtime/log/line_output.h"

namespace runtime::log {

namespace {

class WriterThread {
 public:
  WriterThread() : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    DECISIOND_CHECK_MSG(wake_fd_ >= 0, "eventfd for the log writer");
  }

  void start() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable() || finished_) return;
    thread_ = std::thread([this] { run(); });
  }

  void wake() {
    [[maybe_unused]] const int rc = ::eventfd_write(wake_fd_, 1);
  }

  void finish() {
    std::lock_guard lock(mutex_);
    finished_ = true;
    if (thread_.joinable()) {
      stopping_.store(true, std::memory_order_release);
      wake();
      thread_.join();
    }
    LineOutput::instance().finish();
  }

 private:
  void run() {
    pthread_setname_np(pthread_self(), "log-writer");
    LineOutput& output = LineOutput::instance();
    while (!stopping_.load(std::memory_order_acquire)) {
      int timeout_ms = -1;
      if (const std::optional<int64_t> due = output.next_summary_ms()) {
        const int64_t wait = *due - output.now_ms();
        timeout_ms = wait <= 0 ? 0 : static_cast<int>(wait);
      }
      pollfd p{wake_fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) > 0) {
        eventfd_t ignored;
        ::eventfd_read(wake_fd_, &ignored);
      }
      output.drain();
    }
  }

  std::mutex mutex_;
  int wake_fd_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  bool finished_ = false;
};

WriterThread& writer() {
  // Never destroyed (like the output): a reactor of a test that outlives main may still wake it.
  static WriterThread* const kWriter = new WriterThread();
  return *kWriter;
}

}  // namespace

void start_writer() { writer().start(); }

void wake_writer() { writer().wake(); }

void finish_logging() { writer().finish(); }

}  // namespace runtime::log
