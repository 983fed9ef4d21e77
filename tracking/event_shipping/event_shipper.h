#pragma once
// Ships every core's event log to a NATS JetStream stream (docs/events.md "Shipping to NATS
// JetStream"), closed and live files alike, in runs: each message holds consecutive whole
// lines of one core's log (ship_run.h), subject decisiond.events.<node id>, id
// <node id>:<core>:<first seq>-<last seq>, data the lines joined by line feeds.
//
// One thread per node, never a reactor's: it reads the files the cores wrote (and fdatasyncs
// its own descriptor of each before publishing what it read, so only lines on disk leave),
// publishes through nats_jetstream with at most max_unacknowledged lines unacknowledged,
// cutting runs of what the cursor has on disk (a run waits for no line that is not there),
// moves each core's checkpoint over the contiguous acknowledged prefix (at most every
// kCheckpointIntervalMs), and on a refusal, an unanswered publish or a reconnection reads
// back what the stream holds of this node after the oldest line at risk and publishes the
// rest again as the same runs. A restarted node reads back from its checkpoints the same
// way, so each line is in the stream once however long the node or the broker was away.
// Files go once shipped and older than the retention (log_retention.h). The cores never
// wait for any of it: with the broker away they serve, the files grow, and the lag shows in
// /metrics.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "nats_jetstream/async_publisher.h"
#include "tracking/event_shipping/log_cursor.h"
#include "tracking/event_shipping/log_retention.h"
#include "tracking/event_shipping/ship_run.h"
#include "tracking/event_shipping/ship_counters.h"
#include "tracking/event_shipping/shipped_log.h"
#include "tracking/event_shipping/sink_link.h"
#include "tracking/event_shipping/sink_log.h"

namespace tracking::event_shipping {

// Lines published and not all acknowledged, across the node's logs: 16384 lines of about
// 250 bytes are 4 MB in flight, enough to keep a stream's leader busy across a round trip
// of a few milliseconds at hundreds of thousands of lines a second (a few dozen runs).
inline constexpr uint32_t kMaxUnacknowledged = 16384;

struct ShipperSettings {
  std::string state_dir;
  std::string node_id;
  uint32_t cores = 1;              // the node's --cores: metrics are per core
  SinkSettings sink;
  RetentionRules retention;
  CursorSettings cursor;
  RunBounds run;
  uint32_t max_unacknowledged = kMaxUnacknowledged;
  int64_t ack_timeout_ms = 5000;   // a publish unanswered this long is published again
};

class EventShipper final : private nats_jetstream::PublishListener {
 public:
  explicit EventShipper(ShipperSettings settings);
  ~EventShipper() override;
  EventShipper(const EventShipper&) = delete;
  EventShipper& operator=(const EventShipper&) = delete;

  // The thread: after the cores started (they create their directories).
  void start();
  // After the cores drained and closed their logs: ships what is on disk for at most
  // last_effort (not at all while the broker is away), saves the checkpoints, and joins.
  void stop(std::chrono::milliseconds last_effort);

  // For /metrics: core's counters (cores of the node) and the node's.
  const ShipCoreCounters& core_counters(uint32_t core) const { return core_counters_[core]; }
  const ShipperCounters& counters() const { return counters_; }

 private:
  // A token is the log's index (16 bits) above its run's first seq (48 bits).
  static constexpr int kSeqBits = 48;
  static constexpr uint64_t kSeqMask = (uint64_t{1} << kSeqBits) - 1;
  // A full window takes new lines again once this fraction of it is free.
  static constexpr uint64_t kRefillFraction = 16;

  // nats_jetstream::PublishListener, during take_answers on the thread.
  void acknowledged(uint64_t token, uint64_t stream_seq, bool duplicate) override;
  void refused(uint64_t token, std::string_view why) override;
  void refused_one(std::string_view why) override;

  void run();
  void turn(int64_t now_ms);
  void wait();
  bool finished() const;
  void discover_logs();
  void take_answers(int64_t now_ms, std::chrono::milliseconds wait);
  void check_answers(int64_t now_ms);
  void fail(int64_t now_ms, const std::string& why);
  void start_again();
  void read_back(int64_t now_ms);
  void publish(int64_t now_ms);
  uint32_t publish_log(size_t index, uint32_t budget, const RunBounds& bounds, int64_t now_ms);
  bool publish_run(size_t index, const RunExtent& run, std::string_view data);
  // The next run of new lines into run_ (empty: none on disk yet). True instead when the
  // next line is one the stream holds already: it went into the window, acknowledged.
  bool cut_run(ShippedLog& log, const RunBounds& bounds, int64_t now_ms);
  void advance(ShippedLog& log);
  void save_checkpoints(int64_t now_ms);
  void measure();
  void remove_shipped_files(int64_t now_ms);
  ShipCoreCounters& counters_of(const ShippedLog& log) { return core_counters_[log.core() % settings_.cores]; }

  const ShipperSettings settings_;
  const std::string subject_;
  std::unique_ptr<ShipCoreCounters[]> core_counters_;
  ShipperCounters counters_;
  SinkLink link_;
  std::vector<std::unique_ptr<ShippedLog>> logs_;  // by index in tokens; only ever appended

  mutable std::mutex mutex_;  // stop_ and its deadline
  std::condition_variable wake_;
  bool stop_ = false;
  bool stop_seen_ = false;
  std::chrono::steady_clock::time_point stop_deadline_;

  // The thread's own.
  std::thread thread_;
  std::string refusal_;     // the first refusal's reason among the answers just taken
  bool answered_ = false;   // an acknowledgement among them
  std::string id_;          // a message id being formatted
  std::string run_again_;   // a run's data read again
  RunBuilder run_;          // the run being cut
  uint64_t floor_now_ = 0;  // highest stream sequence acknowledged (or the stream's last at set-up)
  uint64_t held_lines_ = 0; // in every window: bounded by max_unacknowledged
  uint64_t epoch_ = 0;      // the link's, last seen
  bool failing_ = false;    // since the last refusal or timeout, no acknowledgement yet
  bool start_again_ = false;
  bool read_back_ = false;
  bool room_full_ = false;  // the last publish pass stopped at the bound
  bool refilling_ = false;  // the window was full: new lines wait until a batch of room is free
  bool exhausted_ = false;  // the last publish pass found nothing more to read
  int64_t retry_at_ms_ = 0;
  int64_t retry_ms_ = 0;
  int64_t answers_checked_ms_ = 0;
  int64_t checkpoints_ms_ = 0;
  int64_t measured_ms_ = 0;
  int64_t retention_ms_ = 0;
  bool ready_ = false;
  bool blocked_ = false;    // the last publish pass met a refusal of the library
  SaidOnce said_checkpoint_;
  SaidOnce said_log_;
  SaidOnce said_read_back_;
  SaidOnce said_removal_;
};

}  // namespace tracking::event_shipping
