// A catalog's custom rules compiled once: shared by source, absent, refused.
#include "decision/targeting/custom/custom_programs.h"
#include "tests/unit/decision/targeting/custom/custom_ads.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace decision::targeting {
namespace {

using testing::ad_with_custom;

TEST(CustomPrograms, AdsWithTheSameSourceShareOneProgram) {
  const std::vector<catalog::Ad> ads = {ad_with_custom("custom.a == 1"), catalog::Ad{},
                                        ad_with_custom("custom.b == 2"), ad_with_custom("custom.a == 1")};
  const CustomPrograms programs(ads);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs.program_of(0), 0u);
  EXPECT_EQ(programs.program_of(1), CustomPrograms::kNone);
  EXPECT_EQ(programs.program_of(2), 1u);
  EXPECT_EQ(programs.program_of(3), 0u);
  EXPECT_EQ(programs.program(0).source(), "custom.a == 1");
  EXPECT_EQ(programs.program(1).source(), "custom.b == 2");
}

TEST(CustomPrograms, AnIndexPastTheCatalogHasNoRule) {
  const std::vector<catalog::Ad> ads = {ad_with_custom("true")};
  EXPECT_EQ(CustomPrograms(ads).program_of(1), CustomPrograms::kNone);
  EXPECT_EQ(CustomPrograms().program_of(0), CustomPrograms::kNone);
}

TEST(CustomPrograms, ARuleThatDoesNotCompileIsMarkedSo) {
  const std::vector<catalog::Ad> ads = {ad_with_custom("custom.a =="), ad_with_custom("nobody"),
                                        ad_with_custom("custom.a =="), ad_with_custom("true")};
  const CustomPrograms programs(ads);
  EXPECT_EQ(programs.size(), 1u);
  EXPECT_EQ(programs.program_of(0), CustomPrograms::kUncompiled);
  EXPECT_EQ(programs.program_of(1), CustomPrograms::kUncompiled);
  EXPECT_EQ(programs.program_of(2), CustomPrograms::kUncompiled);
  EXPECT_EQ(programs.program_of(3), 0u);
}

TEST(CustomPrograms, KnowsWhichRequestObjectsEachProgramReads) {
  const std::vector<catalog::Ad> ads = {
      ad_with_custom("custom.a == 1"), ad_with_custom("user.id == 'x' || app.name == 'y'"),
      ad_with_custom("has(device.os)"), ad_with_custom("[1, 2].exists(x, x == 2)")};
  const CustomPrograms programs(ads);
  ASSERT_EQ(programs.size(), 4u);
  EXPECT_EQ(programs.variables(0), 0b0001);
  EXPECT_EQ(programs.variables(1), 0b1010);
  EXPECT_EQ(programs.variables(2), 0b0100);
  EXPECT_EQ(programs.variables(3), 0b0000);
}

}  // namespace
}  // namespace decision::targeting
