#include "runtime/log/core_lines.h"

#include <array>
#include <atomic>
#include <mutex>

#include "runtime/check.h"

namespace runtime::log {

namespace {

thread_local CoreLines* this_thread_lines_ = nullptr;

// Queues are made once and never freed: a scrape may read a stopped core's counters, and
// the writer drains a stopped core's last lines. Taken and handed back under the lock; read
// by the consumer without it (a slot is published once, with release).
struct CoreLinesPool {
  std::mutex mutex;
  std::array<std::atomic<CoreLines*>, detail::kMaxCoreLines> made{};
  std::atomic<size_t> count{0};
};

CoreLinesPool& pool() {
  static CoreLinesPool* const kPool = new CoreLinesPool();
  return *kPool;
}

}  // namespace

bool CoreLines::offer(const QueuedLine& line) {
  if (queue_.push(line)) return true;
  counters_.dropped.add();
  return false;
}

bool CoreLines::take(QueuedLine& line) {
  std::optional<QueuedLine> taken = queue_.pop();
  if (!taken) return false;
  line = *taken;
  return true;
}

CoreLogScope::CoreLogScope(uint32_t core) {
  CoreLinesPool& p = pool();
  std::lock_guard lock(p.mutex);
  const size_t count = p.count.load(std::memory_order_relaxed);
  lines_ = nullptr;
  for (size_t i = 0; i < count && lines_ == nullptr; ++i) {
    CoreLines* candidate = p.made[i].load(std::memory_order_relaxed);
    if (!candidate->in_use_ && candidate->core() == core) lines_ = candidate;
  }
  if (lines_ == nullptr) {
    DECISIOND_CHECK_MSG(count < detail::kMaxCoreLines, "more reactor threads at once than log queues");
    lines_ = new CoreLines(core);
    p.made[count].store(lines_, std::memory_order_release);
    p.count.store(count + 1, std::memory_order_release);
  }
  lines_->in_use_ = true;
  this_thread_lines_ = lines_;
}

CoreLogScope::~CoreLogScope() {
  this_thread_lines_ = nullptr;
  std::lock_guard lock(pool().mutex);
  lines_->in_use_ = false;
}

CoreLines* this_thread_lines() { return this_thread_lines_; }

namespace detail {
CoreLines* core_lines_at(size_t index) { return pool().made[index].load(std::memory_order_acquire); }
size_t core_lines_made() { return pool().count.load(std::memory_order_acquire); }
}  // namespace detail

}  // namespace runtime::log
