#pragma once
// A catalog swap is counted off by a core (publication.h) only once its pacing book holds
// an allotment for every goal of the new catalog (docs/pacing.md, "Readiness"): the upload
// is answered, and the update loop goes on, only when every core serves the new goals from
// its next decision. The coordinating core runs the round that allots them at once
// (decision/pacing/pacing_rounds.h); each core is told when its allotments arrive.
#include "decision/pacing/core_pacing.h"
#include "decision/pacing/pacing_rounds.h"
#include "service/catalog_updates/publication.h"

namespace service {

class SwapAllotmentWait final : public decision::pacing::AllotmentWatcher {
 public:
  explicit SwapAllotmentWait(const decision::pacing::CorePacing& book) : book_(book) {}

  // After this core adopted publication's catalog: counts it off now if every goal is
  // allotted here, else once a round has allotted them.
  void count_off_when_allotted(Publication& publication);
  void allotments_applied() override;

 private:
  const decision::pacing::CorePacing& book_;
  Publication* waiting_ = nullptr;  // one at a time: the update loop awaits each publication
};

}  // namespace service
