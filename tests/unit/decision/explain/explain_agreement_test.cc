// An explain is only worth reading if it says what the decision does: the read-only
// questions it asks (CapStore::count, TargetingRule::first_failing) must answer as the
// decision's own (allows, eligible) do.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "caps/cap_partition.h"
#include "decision/request/request_reader.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "tests/unit/decision/explain/explain_fixture.h"

namespace decision::explain::testing {
namespace {

TEST(ExplainAgreement, CapCountsBlockExactlyWhenAllowsRefuses) {
  caps::CapPartition partition;
  std::mt19937_64 random(7);
  const caps::CapRule rules[] = {{1, 60}, {3, 3600}, {5, 600}, {6, 86400}, {40, 7 * 86400}};
  int64_t now_s = kNowS;
  for (int step = 0; step < 20000; ++step) {
    now_s += static_cast<int64_t>(random() % 900);
    const uint64_t user = caps::user_key("u" + std::to_string(random() % 8));
    const uint64_t ad = 1 + random() % 3;
    const size_t first = random() % 5;
    const std::span<const caps::CapRule> caps(rules + first, 1 + random() % (5 - first));
    if (random() % 2 == 0) partition.record(user, ad, caps, now_s);
    std::vector<uint64_t> counts(caps.size());
    const std::string before = [&] {
      std::string out;
      partition.serialize_shard(partition.shard_of(user), now_s, out);
      return out;
    }();
    static_cast<const caps::CapStore&>(partition).count(user, ad, caps, now_s, counts);
    bool blocked = false;
    for (size_t i = 0; i < caps.size(); ++i) blocked |= counts[i] >= caps[i].impressions;
    ASSERT_EQ(!blocked, partition.allows(user, ad, caps, now_s)) << "step " << step;
    std::string after;
    partition.serialize_shard(partition.shard_of(user), now_s, after);
    ASSERT_EQ(after, before);  // counting reads only
  }
}

TEST(ExplainAgreement, FirstFailingNamesARuleExactlyWhenEligibleRefuses) {
  const auto served = served_catalog();
  const catalog::CatalogSnapshot& snapshot = *served->snapshot;
  const std::string bodies[] = {
      R"({"placements":[{"key":"rules"}]})",
      R"({"placements":[{"key":"rules","targeting":{"geo":[3017382],"custom":{"tier":"gold"},"destination":[2267057]}}]})",
      R"({"placements":[{"key":"rules","targeting":{"custom":{"tier":"silver"},"location":[{"lat":48.85,"lon":2.35}]}}],)"
      R"("user":{"timezone":"Asia/Tokyo"}})",
      R"({"placements":[{"key":"rules","targeting":{"custom":{"tier":3}}}],"user":{"timezone":"America/New_York"}})",
  };
  request::RequestReader reader;
  request::DecisionRequest request;
  targeting::TargetingRule deciding({}), explaining({});
  for (const std::string& body : bodies) {
    ASSERT_TRUE(reader.read(body, {.format_understood = true, .destination_understood = true}, request).ok()) << body;
    for (targeting::TargetingRule* rule : {&deciding, &explaining}) {
      rule->begin_request(request, kNowS, true, served->custom_programs);
      rule->begin_placement(request.placements()[0]);
    }
    for (uint32_t ad_index = 0; ad_index < snapshot.ads().size(); ++ad_index) {
      const catalog::Ad& ad = snapshot.ads()[ad_index];
      EXPECT_EQ(deciding.eligible(ad, ad_index),
                explaining.first_failing(ad, ad_index) == targeting::TargetingCheck::kHolds)
          << body << " ad " << ad.id;
    }
  }
}

}  // namespace
}  // namespace decision::explain::testing
