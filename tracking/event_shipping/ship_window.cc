#include "tracking/event_shipping/ship_window.h"

#include <algorithm>

#include "runtime/check.h"

namespace tracking::event_shipping {

ShipWindow::ShipWindow(const ShipCheckpoint& from) : next_seq_(from.next_seq), after_prefix_(from.position) {}

void ShipWindow::add(const ShippableLine& line, uint64_t stream_floor, int64_t now_ms, bool in_stream) {
  DECISIOND_CHECK_MSG(lines_.empty() || line.seq > lines_.back().seq, "event shipping: lines must come in seq order");
  Line held{line.seq, line.time_ms, line.position, line.length, stream_floor, now_ms,
            in_stream ? State::kAcknowledged : State::kPublished};
  lines_.push_back(held);
  if (first_to_publish_ == lines_.size() - 1) ++first_to_publish_;
}

namespace {
template <typename Lines>
auto find_seq(Lines& lines, uint64_t seq) {
  return std::lower_bound(lines.begin(), lines.end(), seq,
                          [](const ShipWindow::Line& line, uint64_t s) { return line.seq < s; });
}
}  // namespace

bool ShipWindow::acknowledge(uint64_t seq) {
  const auto found = find_seq(lines_, seq);
  if (found == lines_.end() || found->seq != seq || found->state != State::kPublished) return false;
  found->state = State::kAcknowledged;
  return true;
}

void ShipWindow::acknowledge_in_stream(const std::vector<uint64_t>& sorted_seqs) {
  auto line = lines_.begin();
  for (uint64_t seq : sorted_seqs) {
    while (line != lines_.end() && line->seq < seq) ++line;
    if (line == lines_.end()) return;
    if (line->seq == seq) line->state = State::kAcknowledged;
  }
}

uint64_t ShipWindow::republish_unacknowledged() {
  first_to_publish_ = lines_.size();
  uint64_t again = 0;
  for (size_t i = lines_.size(); i > 0; --i) {
    Line& line = lines_[i - 1];
    if (line.state == State::kAcknowledged) continue;
    line.state = State::kToPublish;
    first_to_publish_ = i - 1;
    ++again;
  }
  return again;
}

void ShipWindow::retry_last() {
  DECISIOND_CHECK_MSG(!lines_.empty() && lines_.back().state == State::kPublished,
                      "event shipping: only the line just added is retried");
  lines_.back().state = State::kToPublish;
  first_to_publish_ = std::min(first_to_publish_, lines_.size() - 1);
}

ShipWindow::Line* ShipWindow::next_to_publish() {
  while (first_to_publish_ < lines_.size() && lines_[first_to_publish_].state != State::kToPublish) {
    ++first_to_publish_;
  }
  return first_to_publish_ < lines_.size() ? &lines_[first_to_publish_] : nullptr;
}

void ShipWindow::published(Line& line, int64_t now_ms) {
  line.state = State::kPublished;
  line.published_ms = now_ms;
}

ShipWindow::Advance ShipWindow::advance() {
  Advance done;
  while (!lines_.empty() && lines_.front().state == State::kAcknowledged) {
    const Line& line = lines_.front();
    next_seq_ = line.seq + 1;
    after_prefix_ = {line.position.file_first_seq, line.position.offset + line.length};
    ++done.lines;
    done.bytes += line.length;
    lines_.pop_front();
    first_to_publish_ = first_to_publish_ > 0 ? first_to_publish_ - 1 : 0;
  }
  return done;
}

ShipCheckpoint ShipWindow::checkpoint(LogPosition end, uint64_t floor_now) const {
  if (lines_.empty()) return {next_seq_, end, floor_now};
  // Floors grow along the window (each line's is taken at its first publish, in order), so
  // the oldest unacknowledged line's is the lowest.
  return {next_seq_, lines_.front().position, lines_.front().stream_floor};
}

int64_t ShipWindow::oldest_published_ms() const {
  int64_t oldest = 0;
  for (const Line& line : lines_) {
    if (line.state == State::kPublished && (oldest == 0 || line.published_ms < oldest)) oldest = line.published_ms;
  }
  return oldest;
}

uint64_t ShipWindow::unanswered() const {
  uint64_t lines = 0;
  for (const Line& line : lines_) lines += line.state == State::kPublished ? 1 : 0;
  return lines;
}

uint64_t ShipWindow::unacknowledged_bytes() const {
  uint64_t bytes = 0;
  for (const Line& line : lines_) bytes += line.state == State::kAcknowledged ? 0 : line.length;
  return bytes;
}

}  // namespace tracking::event_shipping
