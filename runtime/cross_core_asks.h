#pragma once
// Work sent to the core that owns it, answered back on the asking core: the one way a core
// asks another (docs/architecture.md, "Cross-core asks"). The shape of Seastar's
// submit_to: the asking core fills a Work from its pool and sends it; the owner core runs
// it and sends it home; the asking core takes the answer (completing a deferred reply, say)
// and the Work returns to its pool.
//
// A kind of ask is one type, Work, which names its service and its bound:
//   struct DecisionAsk {
//     using Service = DecisionHandler;        // what runs asks on every core
//     static constexpr uint32_t kPerPeer = 248;  // asks at once from one core to another
//     ...                                      // what goes and what comes back
//   };
// and the service's two ends, found by overload on Work:
//   void serve_ask(DecisionAsk& work, uint32_t from_core);  // on the owner core
//   bool finish_ask(DecisionAsk& work);  // at home; false: nobody waited for the answer
//
// Owned here, once for every kind: the pool (its size an operator's flag), the per-peer
// bound, the queue-capacity rule (runtime/queue_budget.h: reserved from the channel at
// construction, so that an answer always fits its queue home, checked), the refusal path
// (take() or send() false: the caller sheds) and the counters of asks.
//
// Single-threaded: each core's CrossCoreAsks is touched by that core only. A Work is
// touched by one core at a time, the one that holds the message that carries it.
#include <cstdint>
#include <vector>

#include "runtime/answer_gate.h"
#include "runtime/check.h"
#include "runtime/core_channel.h"
#include "runtime/core_counter.h"
#include "runtime/loan_pool.h"
#include "runtime/message.h"
#include "runtime/queue_budget.h"

namespace runtime {

// Per core and kind, single writer; read by metrics scrapes.
struct AskCounters {
  CoreCounter sent;       // asks this core handed to their owner core
  CoreCounter served;     // asks run here for another core
  CoreCounter refused;    // at the pool's bound, the per-peer bound, or a full queue
  CoreCounter abandoned;  // answers nobody waited for any more (a client that left)
};

template <typename Work>
class CrossCoreAsks;

// Every core's CrossCoreAsks of one kind, by core: how an ask finds its owner. Each core
// fills its own slot while it is set up, before any core serves; never changed after.
template <typename Work>
class AskPeers {
 public:
  explicit AskPeers(uint32_t cores) : slots_(cores, nullptr) {}
  uint32_t cores() const { return static_cast<uint32_t>(slots_.size()); }
  CrossCoreAsks<Work>* at(uint32_t core) const { return slots_[core]; }
  void join(uint32_t core, CrossCoreAsks<Work>* asks) {
    DECISIOND_CHECK(core < slots_.size());
    DECISIOND_CHECK_MSG(slots_[core] == nullptr, "two services of one kind joined on one core");
    slots_[core] = asks;
  }

 private:
  std::vector<CrossCoreAsks<Work>*> slots_;
};

template <typename Work>
class CrossCoreAsks {
 public:
  using Service = typename Work::Service;
  static constexpr uint32_t kPerPeer = Work::kPerPeer;

  // channel and peers may be null (a core alone, or a test without other cores): every
  // ask is then refused. Otherwise this core joins peers, and the kind's queue slots are
  // taken from channel's budget (stops the process if they do not fit).
  CrossCoreAsks(Service& service, CoreChannel* channel, AskPeers<Work>* peers, uint32_t pool_size)
      : service_(service),
        channel_(channel),
        peers_(peers),
        pool_(channel != nullptr && peers != nullptr ? pool_size : 0, peers != nullptr ? peers->cores() : 1) {
    if (channel_ == nullptr || peers_ == nullptr) return;
    DECISIOND_CHECK(peers_->cores() == channel_->cores());
    peers_->join(channel_->core(), this);
    channel_->reserve_queue_slots(queue_slots_of<Work>());
  }
  CrossCoreAsks(const CrossCoreAsks&) = delete;
  CrossCoreAsks& operator=(const CrossCoreAsks&) = delete;

  // A Work to fill for owner_core, or nullptr at a bound (counted as refused).
  Work* take(uint32_t owner_core) {
    Loan* loan = pool_.take(owner_core);
    if (loan == nullptr) {
      counters_.refused.add();
      return nullptr;
    }
    loan->owner_core = owner_core;
    return loan;
  }

  // Sends a Work from take() to its owner. False when the queue refuses it (counted as
  // refused): the Work is back in the pool, and the caller answers as at a bound.
  [[nodiscard]] bool send(Work* work) {
    Loan* loan = static_cast<Loan*>(work);
    Message message;
    message.run = &on_owner;
    message.pointer = loan;
    message.words[0] = reinterpret_cast<uintptr_t>(peers_->at(loan->owner_core));
    if (!channel_->post(loan->owner_core, message)) {
      pool_.give_back(loan, loan->owner_core);
      counters_.refused.add();
      return false;
    }
    counters_.sent.add();
    return true;
  }

  // Whether this core has peers to ask (more than one core, wired).
  bool wired() const { return channel_ != nullptr && peers_ != nullptr; }
  uint32_t in_flight() const { return pool_.on_loan(); }
  const AskCounters& counters() const { return counters_; }

  // Runs a message of this kind as the receiving core's reactor would: for tests that
  // carry messages between cores themselves.
  static void deliver(const Message& message) {
    DECISIOND_CHECK(message.run == &on_owner || message.run == &at_home);
    if (message.run == &on_owner) {
      serve_message(message);
    } else {
      finish_message(message);
    }
  }

 private:
  struct Loan : Work {
    uint32_t home_core = 0;
    uint32_t owner_core = 0;
  };

  // What the reactors run. A message names the CrossCoreAsks it is for; only that one's
  // core runs it.
  static void on_owner(Reactor&, const Message& message) { serve_message(message); }
  static void at_home(Reactor&, const Message& message) { finish_message(message); }

  // On the owner core: run the ask, send the answer home.
  static void serve_message(const Message& message) {
    auto* owner = reinterpret_cast<CrossCoreAsks*>(message.words[0]);
    auto* loan = static_cast<Loan*>(message.pointer);
    loan->home_core = message.from_core;
    owner->serve(*loan);
  }

  // Back home: take the answer, return the Work to the pool.
  static void finish_message(const Message& message) {
    auto* home = reinterpret_cast<CrossCoreAsks*>(message.words[0]);
    home->finish(*static_cast<Loan*>(message.pointer));
  }

  void serve(Loan& loan) {
    service_.serve_ask(static_cast<Work&>(loan), loan.home_core);
    counters_.served.add();
    Message message;
    message.run = &at_home;
    message.pointer = &loan;
    message.words[0] = reinterpret_cast<uintptr_t>(peers_->at(loan.home_core));
    // Through the core's gate when it has one: the answer leaves once the lines the ask
    // wrote here are in the kernel (answer_gate.h).
    if (AnswerGate* gate = channel_->answer_gate(); gate != nullptr) {
      gate->post(loan.home_core, message);
      return;
    }
    // The queue budget keeps room for every answer (queue_budget.h): a refusal here is a
    // broken invariant, not a load condition.
    DECISIOND_CHECK_MSG(channel_->post(loan.home_core, message), "a cross-core answer found its queue home full");
  }

  void finish(Loan& loan) {
    if (!service_.finish_ask(static_cast<Work&>(loan))) counters_.abandoned.add();
    pool_.give_back(&loan, loan.owner_core);
  }

  Service& service_;
  CoreChannel* channel_;
  AskPeers<Work>* peers_;
  LoanPool<Loan, kPerPeer> pool_;
  AskCounters counters_;
};

}  // namespace runtime
