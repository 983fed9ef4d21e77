#include "tracking/event_shipping/ship_window.h"

#include <algorithm>

#include "runtime/check.h"

namespace tracking::event_shipping {

ShipWindow::ShipWindow(const ShipCheckpoint& from) : next_seq_(from.next_seq), after_prefix_(from.position) {}

void ShipWindow::add(const RunExtent& run, uint64_t stream_floor, int64_t now_ms, bool in_stream) {
  DECISIOND_CHECK_MSG(run.lines > 0 && run.first_seq <= run.last_seq, "event shipping: a run holds lines");
  DECISIOND_CHECK_MSG(runs_.empty() || run.first_seq > runs_.back().extent.last_seq,
                      "event shipping: runs must come in seq order");
  runs_.push_back(Run{run, stream_floor, now_ms, in_stream ? State::kAcknowledged : State::kPublished});
  if (first_to_publish_ == runs_.size() - 1) ++first_to_publish_;
}

bool ShipWindow::acknowledge(uint64_t first_seq) {
  const auto found = std::lower_bound(runs_.begin(), runs_.end(), first_seq,
                                      [](const Run& run, uint64_t s) { return run.extent.first_seq < s; });
  if (found == runs_.end() || found->extent.first_seq != first_seq || found->state != State::kPublished) return false;
  found->state = State::kAcknowledged;
  return true;
}

void ShipWindow::acknowledge_in_stream(const SeqRanges& in_stream) {
  auto range = in_stream.begin();
  for (Run& run : runs_) {
    while (range != in_stream.end() && range->second < run.extent.first_seq) ++range;
    if (range == in_stream.end()) return;
    if (range->first <= run.extent.first_seq && run.extent.last_seq <= range->second) run.state = State::kAcknowledged;
  }
}

uint64_t ShipWindow::republish_unacknowledged() {
  first_to_publish_ = runs_.size();
  uint64_t again = 0;
  for (size_t i = runs_.size(); i > 0; --i) {
    Run& run = runs_[i - 1];
    if (run.state == State::kAcknowledged) continue;
    run.state = State::kToPublish;
    first_to_publish_ = i - 1;
    again += run.extent.lines;
  }
  return again;
}

void ShipWindow::retry_last() {
  DECISIOND_CHECK_MSG(!runs_.empty() && runs_.back().state == State::kPublished,
                      "event shipping: only the run just added is retried");
  runs_.back().state = State::kToPublish;
  first_to_publish_ = std::min(first_to_publish_, runs_.size() - 1);
}

ShipWindow::Run* ShipWindow::next_to_publish() {
  while (first_to_publish_ < runs_.size() && runs_[first_to_publish_].state != State::kToPublish) {
    ++first_to_publish_;
  }
  return first_to_publish_ < runs_.size() ? &runs_[first_to_publish_] : nullptr;
}

void ShipWindow::published(Run& run, int64_t now_ms) {
  run.state = State::kPublished;
  run.published_ms = now_ms;
}

ShipWindow::Advance ShipWindow::advance() {
  Advance done;
  while (!runs_.empty() && runs_.front().state == State::kAcknowledged) {
    const RunExtent& run = runs_.front().extent;
    next_seq_ = run.last_seq + 1;
    after_prefix_ = {run.position.file_first_seq, run.position.offset + run.length};
    done.lines += run.lines;
    done.bytes += run.length;
    runs_.pop_front();
    first_to_publish_ = first_to_publish_ > 0 ? first_to_publish_ - 1 : 0;
  }
  return done;
}

ShipCheckpoint ShipWindow::checkpoint(LogPosition end, uint64_t floor_now) const {
  if (runs_.empty()) return {next_seq_, end, floor_now};
  // Floors grow along the window (each run's is taken at its first publish, in order), so
  // the oldest unacknowledged run's is the lowest.
  return {next_seq_, runs_.front().extent.position, runs_.front().stream_floor};
}

int64_t ShipWindow::oldest_published_ms() const {
  int64_t oldest = 0;
  for (const Run& run : runs_) {
    if (run.state == State::kPublished && (oldest == 0 || run.published_ms < oldest)) oldest = run.published_ms;
  }
  return oldest;
}

uint64_t ShipWindow::unanswered_lines() const {
  uint64_t lines = 0;
  for (const Run& run : runs_) lines += run.state == State::kPublished ? run.extent.lines : 0;
  return lines;
}

uint64_t ShipWindow::unacknowledged_bytes() const {
  uint64_t bytes = 0;
  for (const Run& run : runs_) bytes += run.state == State::kAcknowledged ? 0 : run.extent.length;
  return bytes;
}

}  // namespace tracking::event_shipping
