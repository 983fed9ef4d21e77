#pragma once
// The parsed requests of decisions waiting for the shared cap store (cluster mode,
// docs/cluster.md "The request paths"). Rather than copy a waiting decision's body and parse
// it again once its user's state comes back, the intake that parsed it goes with the wait
// and the handler reads the next request with another. Only a few are kept, each a reader
// with its buffers and a parsed request of fixed capacity (docs/performance.md, "Where
// decisiond's extra CPU goes in cluster mode", gives the memory); past them a wait copies
// the body and the decision is parsed again, as forwarded_request.h describes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "api_versions/version_table.h"
#include "decision/endpoint/decision_intake.h"

namespace decision::endpoint {

// What cluster mode keeps: a core serving tens of thousands of decisions a second over a
// round trip of a few hundred microseconds has a few dozen waiting at once. Each costs its
// memory whether used or not (docs/cluster.md).
inline constexpr uint32_t kKeptIntakesInClusterMode = 32;

class KeptIntakes {
 public:
  // One intake to read with, and kept more to keep with waits.
  KeptIntakes(const api_versions::VersionTable& versions, size_t max_body_bytes, uint32_t kept);

  DecisionIntake& current() { return *current_; }
  const DecisionIntake& current() const { return *current_; }

  bool can_keep() const { return !free_.empty(); }
  // Keeps the current intake (and the request it holds) with the request travelling, until
  // take_kept_for(travelling); a free one reads from now on. Only when can_keep().
  void keep_current_for(const void* travelling);
  // The intake kept with travelling, no longer kept; null when none was.
  DecisionIntake* take_kept_for(const void* travelling);
  // Makes intake current (the kept one, to finish its decision), returning the one it
  // replaces; called again with that one afterwards.
  DecisionIntake* make_current(DecisionIntake* intake) { return std::exchange(current_, intake); }
  void give_back(DecisionIntake* intake) { free_.push_back(intake); }

  // Bodies read over every intake.
  uint64_t reads() const;

 private:
  std::vector<std::unique_ptr<DecisionIntake>> intakes_;
  std::vector<DecisionIntake*> free_;
  // What is kept, by the request it waits with: a few dozen at most, searched in order.
  std::vector<std::pair<const void*, DecisionIntake*>> kept_;
  DecisionIntake* current_ = nullptr;
};

}  // namespace decision::endpoint
