// The custom rule per core: results per program and placement, never across catalogs.
#include "decision/targeting/custom/custom_rule.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "decision/request/request_reader.h"
#include "tests/unit/decision/targeting/custom/custom_ads.h"

namespace decision::targeting {
namespace {

using testing::ad_with_custom;

class CustomRuleTest : public ::testing::Test {
 protected:
  void read(const std::string& body) {
    body_ = body;
    ASSERT_TRUE(reader_.read(body_, {}, request_).ok()) << body_;
  }
  void start(const CustomPrograms& programs, size_t placement = 0) {
    rule_.begin_request(request_, programs);
    rule_.begin_placement(request_.placements()[placement].targeting);
  }

  std::string body_;
  request::RequestReader reader_;
  request::DecisionRequest request_;
  CustomRule rule_;
};

TEST_F(CustomRuleTest, AnAdWithoutARuleHolds) {
  const std::vector<catalog::Ad> ads = {catalog::Ad{}};
  const CustomPrograms programs(ads);
  read(R"({"placements":[{"key":"p"}]})");
  start(programs);
  EXPECT_TRUE(rule_.holds(0));
  EXPECT_EQ(rule_.evaluations(), 0u);
}

TEST_F(CustomRuleTest, OnlyTrueHolds) {
  const std::vector<catalog::Ad> ads = {
      ad_with_custom("custom.a == 1"), ad_with_custom("custom.a == 2"), ad_with_custom("custom.a"),
      ad_with_custom("custom.b == 1"), ad_with_custom("custom.a / 0 == 0"),
      ad_with_custom("custom.a == 2 || custom.b == 1"), ad_with_custom("custom.b == 1 || custom.a == 1"),
      ad_with_custom("not a rule")};
  const CustomPrograms programs(ads);
  read(R"({"placements":[{"key":"p","targeting":{"custom":{"a":1}}}]})");
  start(programs);
  EXPECT_TRUE(rule_.holds(0));
  EXPECT_FALSE(rule_.holds(1));
  EXPECT_FALSE(rule_.holds(2));  // an int, not a bool
  EXPECT_FALSE(rule_.holds(3));  // no such key
  EXPECT_FALSE(rule_.holds(4));  // division by zero
  EXPECT_FALSE(rule_.holds(5));  // false || error is the error
  EXPECT_TRUE(rule_.holds(6));   // error || true is true
  EXPECT_FALSE(rule_.holds(7));  // never compiled
}

TEST_F(CustomRuleTest, AProgramRunsOncePerPlacementHoweverManyAdsShareIt) {
  std::vector<catalog::Ad> ads;
  for (int i = 0; i < 50; ++i) ads.push_back(ad_with_custom(i % 2 ? "custom.a == 1" : "custom.a == 2"));
  const CustomPrograms programs(ads);
  read(R"({"placements":[{"key":"p","targeting":{"custom":{"a":1}}},{"key":"q","targeting":{"custom":{"a":2}}}]})");
  start(programs, 0);
  for (uint32_t i = 0; i < ads.size(); ++i) EXPECT_EQ(rule_.holds(i), i % 2 == 1) << i;
  EXPECT_EQ(rule_.evaluations(), 2u);
  rule_.begin_placement(request_.placements()[1].targeting);  // another custom: run again
  for (uint32_t i = 0; i < ads.size(); ++i) EXPECT_EQ(rule_.holds(i), i % 2 == 0) << i;
  EXPECT_EQ(rule_.evaluations(), 4u);
  start(programs, 0);  // a new request: run again
  EXPECT_TRUE(rule_.holds(1));
  EXPECT_EQ(rule_.evaluations(), 5u);
}

TEST_F(CustomRuleTest, ResultsNeverCarryOverToAnotherCatalog) {
  const std::vector<catalog::Ad> before = {ad_with_custom("custom.a == 2")};
  const std::vector<catalog::Ad> after = {ad_with_custom("custom.a == 1"), ad_with_custom("true"),
                                          ad_with_custom("false")};
  const CustomPrograms old_programs(before);
  const CustomPrograms new_programs(after);
  read(R"({"placements":[{"key":"p","targeting":{"custom":{"a":1}}}]})");
  start(old_programs);
  EXPECT_FALSE(rule_.holds(0));
  start(new_programs);  // program 0 is another rule now, and there are more programs
  EXPECT_TRUE(rule_.holds(0));
  EXPECT_TRUE(rule_.holds(1));
  EXPECT_FALSE(rule_.holds(2));
  start(old_programs);
  EXPECT_FALSE(rule_.holds(0));
}

}  // namespace
}  // namespace decision::targeting
