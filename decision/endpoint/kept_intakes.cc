#include "decision/endpoint/kept_intakes.h"

#include "runtime/check.h"

namespace decision::endpoint {

KeptIntakes::KeptIntakes(const api_versions::VersionTable& versions, size_t max_body_bytes, uint32_t kept) {
  for (uint32_t i = 0; i <= kept; ++i) {
    intakes_.push_back(std::make_unique<DecisionIntake>(versions, max_body_bytes));
    if (i > 0) free_.push_back(intakes_.back().get());
  }
  current_ = intakes_.front().get();
  kept_.reserve(kept);
}

void KeptIntakes::keep_current_for(const void* travelling) {
  DECISIOND_CHECK_MSG(!free_.empty(), "kept intakes: none free to read with");
  DECISIOND_CHECK(travelling != nullptr);
  kept_.emplace_back(travelling, current_);
  current_ = free_.back();
  free_.pop_back();
}

DecisionIntake* KeptIntakes::take_kept_for(const void* travelling) {
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (it->first != travelling) continue;
    DecisionIntake* kept = it->second;
    *it = kept_.back();
    kept_.pop_back();
    return kept;
  }
  return nullptr;
}

uint64_t KeptIntakes::reads() const {
  uint64_t reads = 0;
  for (const auto& intake : intakes_) reads += intake->reader_counters().reads;
  return reads;
}

}  // namespace decision::endpoint
