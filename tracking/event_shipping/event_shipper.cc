#include "tracking/event_shipping/event_shipper.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"
#include "runtime/clock.h"
#include "tracking/event_shipping/message_id.h"
#include "tracking/event_shipping/read_back.h"
#include "tracking/event_shipping/sink_log.h"
#include "tracking/events/log_files.h"

namespace tracking::event_shipping {

namespace {
constexpr int64_t kAnswerPollMs = 20;           // a full window looks for answers at least this often
constexpr int64_t kCheckpointIntervalMs = 150;  // a moving checkpoint is saved this often
constexpr int64_t kMeasureIntervalMs = 250;     // the backlog's metrics
constexpr int64_t kRetentionIntervalMs = 60'000;
constexpr int64_t kAnswerCheckIntervalMs = 500;
constexpr int64_t kRetryFirstMs = 250;          // after a failure, publishing again waits, doubling
constexpr int64_t kRetryMaxMs = 5000;
constexpr size_t kAnswersPerTake = 8192;        // answers taken at once, between publish passes
constexpr std::chrono::microseconds kAnswerWaitStep{500};  // a full window looks for its batch of answers

int64_t wall_ms() { return runtime::SystemClock::instance().wall_ms(); }
}  // namespace

EventShipper::EventShipper(ShipperSettings settings)
    : settings_(std::move(settings)),
      subject_(ship_subject(settings_.node_id)),
      core_counters_(new ShipCoreCounters[settings_.cores]),
      link_(settings_.sink, *this, counters_) {
  DECISIOND_CHECK_MSG(settings_.cores > 0, "event shipping: a node has at least one core");
}

EventShipper::~EventShipper() {
  if (thread_.joinable()) stop(std::chrono::milliseconds(0));
}

void EventShipper::start() {
  thread_ = std::thread([this] { run(); });
  pthread_setname_np(thread_.native_handle(), "events-shipper");
}

void EventShipper::stop(std::chrono::milliseconds last_effort) {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    stop_deadline_ = std::chrono::steady_clock::now() + last_effort;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void EventShipper::acknowledged(uint64_t token, uint64_t stream_seq, bool duplicate) {
  const size_t index = static_cast<size_t>(token >> kSeqBits);
  if (index >= logs_.size()) return;
  floor_now_ = std::max(floor_now_, stream_seq);
  if (!logs_[index]->window().acknowledge(token & kSeqMask)) return;
  answered_ = true;
  if (duplicate) counters_.duplicates.add();
}

void EventShipper::refused(uint64_t, std::string_view why) { refused_one(why); }

void EventShipper::refused_one(std::string_view why) {
  counters_.publish_errors.add();
  if (refusal_.empty()) refusal_ = why;
}

void EventShipper::run() {
  discover_logs();
  while (true) {
    turn(wall_ms());
    if (finished()) break;
    wait();
  }
  const int64_t now = wall_ms();
  take_answers(now, std::chrono::milliseconds(0));
  save_checkpoints(now);
  measure();
  link_.close();
}

void EventShipper::turn(int64_t now_ms) {
  ready_ = link_.ready(now_ms);
  take_answers(now_ms, std::chrono::milliseconds(0));
  if (ready_) {
    floor_now_ = std::max(floor_now_, link_.stream_last_seq_at_setup());
    if (link_.epoch() != epoch_) {
      // Answers to what was in flight before may never come.
      const bool in_flight = std::any_of(logs_.begin(), logs_.end(),
                                         [](const auto& log) { return log->window().oldest_published_ms() != 0; });
      if (epoch_ != 0 && in_flight) fail(now_ms, "the connection came back");
      epoch_ = link_.epoch();
    }
    check_answers(now_ms);
    if (start_again_ && now_ms >= retry_at_ms_) start_again();
    if (read_back_ && !start_again_ && now_ms >= retry_at_ms_) read_back(now_ms);
    if (!start_again_ && !read_back_) publish(now_ms);
  }
  if (now_ms - checkpoints_ms_ >= kCheckpointIntervalMs) save_checkpoints(now_ms);
  if (now_ms - measured_ms_ >= kMeasureIntervalMs) {
    measured_ms_ = now_ms;
    discover_logs();
    measure();
  }
  if (now_ms - retention_ms_ >= kRetentionIntervalMs) {
    retention_ms_ = now_ms;
    remove_shipped_files(now_ms);
  }
}

void EventShipper::wait() {
  // More to read and room for it: no wait.
  if (ready_ && !room_full_ && !blocked_ && !exhausted_ && !start_again_ && !read_back_) return;
  // The window full: until a batch of answers has come (or a poll), then they are taken at
  // once. Waking for each answer would cost the shipper a wake-up and a pass per line.
  if (ready_ && room_full_ && link_.has_publisher()) {
    const size_t batch = std::max<size_t>(1, settings_.max_unacknowledged / kRefillFraction);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kAnswerPollMs);
    while (link_.publisher().answers_waiting() < batch && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(kAnswerWaitStep);
    }
    take_answers(wall_ms(), std::chrono::milliseconds(0));
    return;
  }
  std::unique_lock lock(mutex_);
  // Nothing more on disk: the lines written meanwhile wait for the next run this long
  // (RunBounds::wait_ms), so that runs are long and passes few while the cores write.
  wake_.wait_for(lock, std::chrono::milliseconds(settings_.run.wait_ms), [this] { return stop_ && !stop_seen_; });
  stop_seen_ = stop_;
}

bool EventShipper::finished() const {
  {
    std::lock_guard lock(mutex_);
    if (!stop_) return false;
    if (std::chrono::steady_clock::now() >= stop_deadline_) return true;
  }
  if (!ready_) return true;  // the broker is away: the lines stay on disk for the next start
  return exhausted_ && std::all_of(logs_.begin(), logs_.end(), [](const auto& log) { return log->window().empty(); });
}

void EventShipper::discover_logs() {
  for (uint32_t core : events::list_core_dirs(settings_.state_dir)) {
    if (std::any_of(logs_.begin(), logs_.end(), [core](const auto& log) { return log->core() == core; })) continue;
    DECISIOND_CHECK_MSG(logs_.size() < (size_t{1} << (64 - kSeqBits)), "event shipping: more core directories than tokens can name");
    std::string problem;
    logs_.push_back(std::make_unique<ShippedLog>(core, events::core_dir(settings_.state_dir, core), settings_.cursor,
                                                 &problem));
    if (!problem.empty()) say(runtime::log::Level::kWarn, problem);
    if (logs_.back()->needs_read_back()) read_back_ = true;
  }
}

void EventShipper::take_answers(int64_t now_ms, std::chrono::milliseconds wait) {
  if (!link_.has_publisher()) return;
  refusal_.clear();
  answered_ = false;
  link_.publisher().take_answers(wait, kAnswersPerTake);
  for (const auto& log : logs_) advance(*log);
  if (!refusal_.empty()) {
    // No responders: no stream stores the subject (deleted?) or it has no leader: look again.
    if (refusal_.find("no responders") != std::string::npos) link_.recheck_stream();
    fail(now_ms, refusal_);
  } else if (answered_ && failing_) {
    failing_ = false;
    retry_ms_ = 0;
    say(runtime::log::Level::kInfo, "publishing again: the stream acknowledges");
  }
}

void EventShipper::check_answers(int64_t now_ms) {
  if (now_ms - answers_checked_ms_ < kAnswerCheckIntervalMs) return;
  answers_checked_ms_ = now_ms;
  uint64_t unanswered = 0;
  bool late = false;
  for (const auto& log : logs_) {
    const int64_t oldest = log->window().oldest_published_ms();
    late = late || (oldest != 0 && now_ms - oldest > settings_.ack_timeout_ms);
    unanswered += log->window().unanswered_lines();
  }
  if (!late) return;
  counters_.publish_errors.add(unanswered);
  fail(now_ms, absl::StrCat("no acknowledgement within ", settings_.ack_timeout_ms, " ms"));
}

void EventShipper::fail(int64_t now_ms, const std::string& why) {
  if (!start_again_) {
    start_again_ = true;
    retry_ms_ = retry_ms_ == 0 ? kRetryFirstMs : std::min(2 * retry_ms_, kRetryMaxMs);
    retry_at_ms_ = now_ms + retry_ms_;
  }
  if (failing_) return;
  failing_ = true;
  say(runtime::log::Level::kWarn, absl::StrCat("publishing failed (", why,
                         "); the lines not acknowledged are published again once a read-back of the stream says "
                         "which it lacks"));
}

void EventShipper::start_again() {
  link_.publisher().abandon_pending();
  for (const auto& log : logs_) {
    if (log->start_again(floor_now_) > 0) read_back_ = true;
  }
  start_again_ = false;
}

}  // namespace tracking::event_shipping
