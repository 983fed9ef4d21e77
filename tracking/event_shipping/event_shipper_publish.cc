// The shipper's publish pass and its read-backs (event_shipper.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"
#include "tracking/event_shipping/event_shipper.h"
#include "tracking/event_shipping/message_id.h"
#include "tracking/event_shipping/read_back.h"

namespace tracking::event_shipping {

namespace {
constexpr uint32_t kLinesPerLogTurn = 4096;  // a log's share of a pass: one busy core starves none
constexpr int64_t kReadBackRetryMs = 1000;
}  // namespace

void EventShipper::read_back(int64_t now_ms) {
  uint64_t floor = UINT64_MAX;
  for (const auto& log : logs_) {
    if (log->needs_read_back()) floor = std::min(floor, log->read_back_floor());
  }
  if (floor == UINT64_MAX) {
    read_back_ = false;
    return;
  }
  counters_.read_backs.add();
  const absl::StatusOr<ReadBack> back =
      read_back_shipped(link_.jetstream(), link_.stream_name(), settings_.node_id, floor);
  if (!back.ok()) {
    said_read_back_.say_if_new(runtime::log::Level::kWarn, absl::StrCat("cannot read the stream back (", back.status().message(),
                                            "); nothing is published until it can"));
    retry_at_ms_ = now_ms + kReadBackRetryMs;
    return;
  }
  said_read_back_.clear();
  floor_now_ = std::max(floor_now_, back->stream_last_seq);
  uint64_t found = 0;
  const std::vector<FoundRun> none;
  for (const auto& log : logs_) {
    if (!log->needs_read_back()) continue;
    const auto of_core = back->found.find(log->core());
    found += log->found_in_stream(of_core == back->found.end() ? none : of_core->second, back->stream_last_seq);
  }
  counters_.read_back_lines.add(found);
  read_back_ = false;
  if (found > 0) {
    say(runtime::log::Level::kInfo, absl::StrCat("read the stream back from sequence ", floor + 1, ": ", found,
                     " line(s) not yet checkpointed are there already, and are not published again"));
  }
}

void EventShipper::publish(int64_t now_ms) {
  room_full_ = false;
  blocked_ = false;
  // The servers' limits hold for the whole pass: asked once, not per log.
  RunBounds bounds = settings_.run;
  bounds.max_bytes = static_cast<uint32_t>(std::min<uint64_t>(bounds.max_bytes, link_.max_message_bytes()));
  bool more = true;
  while (more && !blocked_ && !room_full_) {
    more = false;
    for (size_t i = 0; i < logs_.size() && !blocked_ && !room_full_; ++i) {
      if (publish_log(i, kLinesPerLogTurn, bounds, now_ms) >= kLinesPerLogTurn) more = true;  // a run may end past the share
    }
  }
  exhausted_ = !more && !blocked_ && !room_full_;
}

// Lines of log index published (again) or taken into its window as found in the stream.
// Runs to publish again go first and need only room in the publisher; a new run needs room
// in the node's window too.
uint32_t EventShipper::publish_log(size_t index, uint32_t budget, const RunBounds& bounds, int64_t now_ms) {
  ShippedLog& log = *logs_[index];
  if (!log.has_checkpoint()) {  // on disk before the first publish: none means none published
    if (absl::Status saved = log.save_checkpoint(floor_now_); !saved.ok()) {
      counters_.checkpoint_errors.add();
      said_checkpoint_.say_if_new(runtime::log::Level::kError,
                                    absl::StrCat(saved.message(), "; this log is not shipped until it can be written"));
      return 0;
    }
  }
  uint32_t taken = 0;
  while (taken < budget && !blocked_ && !room_full_) {
    if (ShipWindow::Run* again = log.window().next_to_publish()) {
      if (!log.read_run(again->extent, run_again_)) {
        counters_.log_errors.add();
        said_log_.say_if_new(runtime::log::Level::kError, absl::StrCat("cannot read lines ", again->extent.first_seq, "-", again->extent.last_seq,
                                          " of ", log.directory(), " again"));
        return taken;
      }
      if (!publish_run(index, again->extent, run_again_)) return taken;
      log.window().published(*again, now_ms);
      counters_.republished_lines.add(again->extent.lines);
      taken += again->extent.lines;
      continue;
    }
    // A full window takes new lines again once a batch of room is free: one wake-up and
    // one pass per batch of answers, not per answer.
    if (held_lines_ >= settings_.max_unacknowledged) refilling_ = true;
    if (refilling_ && held_lines_ + settings_.max_unacknowledged / kRefillFraction > settings_.max_unacknowledged) {
      room_full_ = true;
      return taken;
    }
    refilling_ = false;
    if (cut_run(log, bounds, now_ms)) {  // a line found in the stream, taken as acknowledged
      ++taken;
      continue;
    }
    if (run_.empty()) {
      if (!log.cursor().error().empty()) {
        counters_.log_errors.add();
        said_log_.say_if_new(runtime::log::Level::kError, log.cursor().error());
      }
      return taken;
    }
    log.window().add(run_.extent(), floor_now_, now_ms, /*in_stream=*/false);
    held_lines_ += run_.extent().lines;
    taken += run_.extent().lines;
    if (!publish_run(index, run_.extent(), run_.data())) {
      log.window().retry_last();
      return taken;
    }
  }
  return taken;
}

bool EventShipper::cut_run(ShippedLog& log, const RunBounds& bounds, int64_t now_ms) {
  run_.clear();
  while (std::optional<ShippableLine> line = log.cursor().next(now_ms)) {
    if (log.take_in_stream(line->seq)) {
      // In the stream already (a read-back found it): never part of a run cut now, so no
      // message of this life holds it a second time.
      if (!run_.empty()) {
        log.cursor().unread();
        return false;
      }
      const RunExtent found{line->seq, line->seq, 1, line->time_ms, line->position, line->length};
      log.window().add(found, floor_now_, now_ms, /*in_stream=*/true);
      ++held_lines_;
      advance(log);
      return true;
    }
    if (!run_.fits(*line, bounds)) {
      log.cursor().unread();
      return false;
    }
    run_.add(*line);
  }
  return false;
}

bool EventShipper::publish_run(size_t index, const RunExtent& run, std::string_view data) {
  DECISIOND_CHECK_MSG(run.last_seq <= kSeqMask, "event shipping: a line seq past 2^48");
  format_message_id(settings_.node_id, logs_[index]->core(), run.first_seq, run.last_seq, id_);
  const absl::Status published =
      link_.publisher().publish(subject_.c_str(), id_.c_str(), data, (uint64_t{index} << kSeqBits) | run.first_seq);
  if (published.ok()) return true;
  // Every slot awaits an answer (room comes with the answers), or the library refuses (a
  // closed connection, a full reconnect buffer): the run waits for a later pass.
  (absl::IsResourceExhausted(published) ? room_full_ : blocked_) = true;
  return false;
}

void EventShipper::advance(ShippedLog& log) {
  const uint64_t done = log.window().advance().lines;
  held_lines_ -= done;
  counters_of(log).lines_shipped.add(done);
}

}  // namespace tracking::event_shipping
