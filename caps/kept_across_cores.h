#pragma once
// Every core of a node counts every impression the node keeps for the shared store
// (docs/caps.md "While the shared store heals"): a core that keeps one, or applies one at
// last, tells the node's other cores by message, and each adds the change to its own
// KeptImpressions. A user's next decision on any core of the node then counts it, whichever
// core received the impression.
//
// One batch of changes on its way to each peer at a time (a cross-core ask): changes made meanwhile wait in that peer's outbox and go when the batch comes
// back, in order, so a peer never sees a removal before its addition. A batch the queue
// refuses is tried again from a timer. Only while the store is faulted is there anything to
// send; otherwise nothing here runs.
//
// Per core, single-threaded.
#include <cstdint>
#include <vector>

#include "caps/kept_impressions.h"
#include "runtime/core_channel.h"
#include "runtime/cross_core_asks.h"
#include "runtime/timer_wheel.h"

namespace caps {

class KeptAcrossCores;

struct KeptChange {
  uint64_t user_key = 0;
  uint64_t ad_id = 0;
  bool added = false;
};

// A batch of one core's changes, run on a peer.
struct KeptNewsAsk {
  using Service = KeptAcrossCores;
  // One batch to each peer at a time, so that the order of changes is the order of
  // batches; the second slot lets the next batch leave while the last one's loan is being
  // given back (finish_ask runs before the pool has it again).
  static constexpr uint32_t kPerPeer = 2;
  uint32_t peer = 0;  // the core it went to
  std::vector<KeptChange> changes;
};

class KeptAcrossCores final : public KeptImpressionsListener {
 public:
  // channel and peers null: a core alone, nothing to tell.
  KeptAcrossCores(KeptImpressions& kept, runtime::CoreChannel* channel, runtime::AskPeers<KeptNewsAsk>* peers,
                  runtime::TimerWheel& timers);
  ~KeptAcrossCores() override;
  KeptAcrossCores(const KeptAcrossCores&) = delete;
  KeptAcrossCores& operator=(const KeptAcrossCores&) = delete;

  // Changes made before the cores serve (the start-up scan's) wait until every core has
  // joined: this sends them, from the first loop turn.
  void start();

  void kept_changed(uint64_t user_key, uint64_t ad_id, bool added) override;

  // The cross-core ask's two ends (runtime/cross_core_asks.h).
  void serve_ask(KeptNewsAsk& news, uint32_t from_core);
  bool finish_ask(KeptNewsAsk& news);

  // Changes waiting for a peer (tests).
  size_t waiting(uint32_t peer) const { return outbox_[peer].size(); }

 private:
  class Retry final : public runtime::Timer {
   public:
    explicit Retry(KeptAcrossCores& owner) : owner_(owner) {}
    void on_expire() override { owner_.send_all(); }

   private:
    KeptAcrossCores& owner_;
  };

  void send_all();
  void send(uint32_t peer);

  static constexpr int64_t kRetryMs = 10;

  KeptImpressions& kept_;
  runtime::TimerWheel& timers_;
  uint32_t core_ = 0;
  bool started_ = false;
  std::vector<std::vector<KeptChange>> outbox_;  // by peer core; this core's stays empty
  std::vector<bool> batch_out_;                  // by peer core: a batch on its way there
  runtime::CrossCoreAsks<KeptNewsAsk> asks_;
  Retry retry_{*this};
};

}  // namespace caps
