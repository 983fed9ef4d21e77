#pragma once
// Frequency caps (docs/caps.md) as the selector's eligibility rule: an ad passes when its
// targeting holds and, for a user whose id may be used, every frequency cap of the ad still
// allows one more impression. Targeting runs first; the cap store is asked only for ads
// that passed everything else and carry caps.
//
// No user id, or one GDPR forbids using: caps are not applied and no cap state is read
// (the store is never asked). Impressions count when their tracking URL is called, not
// here: deciding never writes cap state.
#include <cstdint>
#include <optional>

#include "caps/cap_store.h"
#include "decision/selection/ad_selector.h"

namespace decision::capping {

// The cap state of a user when the shared cap store did not answer in time: every capped
// ad is refused (fail closed), uncapped ads still serve.
class CapsUnavailable final : public caps::CapReader {
 public:
  bool allows(uint64_t, uint64_t, std::span<const caps::CapRule>, int64_t) const override { return false; }
  void count(uint64_t, uint64_t, std::span<const caps::CapRule>, int64_t, std::span<uint64_t> counts) const override {
    for (uint64_t& c : counts) c = 0;
  }
  uint32_t pending(uint64_t, uint64_t, int64_t) const override { return 0; }
};

class FrequencyCapRule final : public selection::EligibilityRule {
 public:
  // targeting: the rule that runs first (the request's targeting).
  explicit FrequencyCapRule(selection::EligibilityRule& targeting) : targeting_(targeting) {}

  // Once per request. store: the user's cap state (the partition of the core that owns
  // user_key, or what the shared store answered), or null when caps do not apply (no usable
  // user id).
  void begin_request(const caps::CapReader* store, std::optional<uint64_t> user_key, int64_t now_s) {
    store_ = user_key ? store : nullptr;
    user_key_ = user_key.value_or(0);
    now_s_ = now_s;
  }

  bool eligible(const catalog::Ad& ad, uint32_t ad_index) override;

  // Ads refused by a cap so far (a running total, for metrics).
  uint64_t capped() const { return capped_; }

 private:
  selection::EligibilityRule& targeting_;
  const caps::CapReader* store_ = nullptr;
  uint64_t user_key_ = 0;
  int64_t now_s_ = 0;
  uint64_t capped_ = 0;
};

}  // namespace decision::capping
