#pragma once
// Impressions counted in the shared cap store (cluster mode, docs/cluster.md): any core of
// any node sends an impression to the store, where its identity is checked and it is
// counted against its user's caps in one atomic step, so it counts once whichever nodes
// receive it, however often.
//
// Written ahead: each impression's first line, "store": "unapplied" with its attempt's
// stamp, is written before the store is asked (the call leaves once the line's write has
// completed), and the store's answer is a second line, "store": "reapplied", whose
// duplicate member says what it was. A node killed between the store counting an impression
// and the answer's line leaves the attempt in its log without its answer: the next start
// sends it again (unapplied_scan.h), the store recognises the stamp, and the answer line is
// written then. The tracking call's 204 waits for the answer's line and leaves in the same
// loop turn (ImpressionLogged).
//
// Failure policy: an impression the store did not take in time (or at the bound of calls
// in flight) is kept, its unapplied line written already; every second the kept ones are
// sent again, and the answer is logged as above. The store recognises an identity until its token
// expires plus a grace, so applying one again is exactly once. What is kept in memory is
// bounded; past the bound, and after a restart, the log's unapplied lines without their
// reapplied line are the list (unapplied_scan.h). While kept, an impression counts in every
// read of its user's state on any core of the node (caps/kept_impressions.h). Sending kept ones again takes
// at most half the calls in flight, so a store part that does not answer (its kept
// impressions waiting out their deadlines) never leaves new impressions without a call.
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "caps/kept_impressions.h"
#include "caps/shared_cap_store.h"
#include "runtime/after_lines_written.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/timer_wheel.h"
#include "tracking/events/event_log.h"
#include "tracking/impressions/ad_caps.h"
#include "tracking/impressions/delivery_listener.h"
#include "tracking/impressions/impression_logged.h"
#include "tracking/impressions/impression_notice.h"

namespace tracking::shared_impressions {

struct SharedImpressionCounters {
  runtime::CoreCounter counted;     // first sightings, as the store answered
  runtime::CoreCounter duplicates;  // repeats, as the store answered
  runtime::CoreCounter unapplied;   // not taken by the store in time, kept to apply again
  runtime::CoreCounter reapplied;   // kept ones the store has since taken
  runtime::CoreCounter backlog;     // gauge: kept, waiting to be applied again
  runtime::CoreCounter overflowed;  // kept past the memory bound: applied at the next start
};

struct SharedImpressionSettings {
  uint32_t max_in_flight = 1024;      // impressions waiting for the store at once
  size_t max_backlog = 1'000'000;     // kept in memory to apply again
  int64_t retry_interval_ms = 1000;
  // Makes this core's attempt stamps differ from every other core's and every other run's
  // (a hash of the node id, the core and the start time).
  uint64_t attempt_seed = 0;
};

class SharedImpressionCounter {
 public:
  // kept: where this core's kept impressions are counted for its reads of users' states.
  // io: the loop whose turns tell when the log's lines are written.
  SharedImpressionCounter(uint32_t core, caps::SharedCapStore& store, caps::KeptImpressions& kept,
                          const impressions::AdCaps& ad_caps, events::EventLog& log, runtime::FileIo& io,
                          runtime::TimerWheel& timers, const SharedImpressionSettings& settings);
  ~SharedImpressionCounter();

  // Logs the impression's attempt and sends it to the store once that line is written.
  // True: nothing more to wait for (no call was free, or logged is null: kept, sent again
  // later). False: logged is told once the store's answer is logged, or its deadline passes.
  [[nodiscard]] bool count(const impressions::ImpressionNotice& notice, impressions::ImpressionLogged* logged);
  // Told of every impression the store counted from now on (null: nobody).
  void set_delivery_listener(impressions::DeliveryListener* listener) { delivery_ = listener; }
  // An impression found unapplied in the log at start: applied again like any kept one.
  void keep(const impressions::ImpressionNotice& notice);
  const SharedImpressionCounters& counters() const { return counters_; }

 private:
  class InFlight;
  class RetryTimer final : public runtime::Timer {
   public:
    explicit RetryTimer(SharedImpressionCounter& owner) : owner_(owner) {}
    void on_expire() override { owner_.retry(); }

   private:
    SharedImpressionCounter& owner_;
  };

  // A free call filled with notice, or null when every call is out.
  InFlight* take_call(const impressions::ImpressionNotice& notice, bool again, impressions::ImpressionLogged* logged);
  // Asks the store; false when it refused (the call is still the caller's).
  bool ask_store(InFlight& call);
  void give_back(InFlight& call);
  // A first attempt's line is written: the store may be asked.
  void written_ahead(InFlight& call);
  // A kept one goes back to the backlog after another attempt the store did not take.
  void keep_again(const impressions::ImpressionNotice& notice);
  // Into the backlog (past its bound: left to the next start), counted in kept_ once.
  void to_backlog(const impressions::ImpressionNotice& notice, bool kept_already);
  // A kept one leaves memory: applied at last, or past the backlog's bound.
  void forget_kept(const impressions::ImpressionNotice& notice);
  void answered(InFlight& call, caps::ImpressionOutcome outcome);
  void log_line(const impressions::ImpressionNotice& notice, bool duplicate, std::string_view store);
  void retry();
  // The stamp of a new first attempt: never 0, never twice.
  uint64_t next_attempt();

  const uint32_t core_;
  caps::SharedCapStore& store_;
  caps::KeptImpressions& kept_;
  const impressions::AdCaps& ad_caps_;
  events::EventLog& log_;
  runtime::TimerWheel& timers_;
  const SharedImpressionSettings settings_;
  std::vector<std::unique_ptr<InFlight>> pool_;
  std::vector<InFlight*> free_;
  runtime::AfterLinesWritten written_;  // first attempts waiting for their line's write
  std::deque<impressions::ImpressionNotice> backlog_;
  uint32_t again_in_flight_ = 0;  // kept ones sent again, not answered yet
  uint64_t attempts_ = 0;
  impressions::ImpressionNotice stamped_;  // count()'s copy, capacity kept
  RetryTimer retry_timer_{*this};
  impressions::DeliveryListener* delivery_ = nullptr;
  SharedImpressionCounters counters_;
};

}  // namespace tracking::shared_impressions
