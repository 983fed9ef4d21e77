// targeting (10017 when not an object), targeting.geo and targeting.destination (10017).
#include "reader_fixture.h"

namespace decision::request {
namespace {

std::vector<uint64_t> ids(std::span<const uint64_t> span) { return {span.begin(), span.end()}; }

std::string id_array(int n) {
  std::string out = "[";
  for (int i = 1; i <= n; ++i) out += (i > 1 ? "," : "") + std::to_string(i);
  return out + "]";
}

using Targeting = ReaderTest;

TEST_F(Targeting, NotAnObjectIs10017) {
  EXPECT_EQ(only_error(with_placement_fields(R"("targeting":[1])")),
            (Error{10017, "placements[0].targeting"}));
  EXPECT_EQ(result_.errors[0].message, "targeting must be an object");
  EXPECT_EQ(only_error(with_placement_fields(R"("targeting":"geo")")),
            (Error{10017, "placements[0].targeting"}));
}

TEST_F(Targeting, NullOrEmptyIsNoTargeting) {
  ASSERT_TRUE(read(with_targeting("null")).ok());
  ASSERT_TRUE(read(with_targeting("{}")).ok());
  EXPECT_TRUE(placement().targeting.geo().empty());
}

using Geo = ReaderTest;

TEST_F(Geo, PositiveIntegersAreRead) {
  ASSERT_TRUE(read(with_targeting(R"({"geo":[2988507,3017382,1]})")).ok());
  EXPECT_EQ(ids(placement().targeting.geo()), (std::vector<uint64_t>{2988507, 3017382, 1}));
}

TEST_F(Geo, DigitStringsAreAccepted) {
  ASSERT_TRUE(read(with_targeting(R"({"geo":["2988507", 3017382, "18446744073709551615"]})")).ok());
  EXPECT_EQ(ids(placement().targeting.geo()),
            (std::vector<uint64_t>{2988507, 3017382, UINT64_MAX}));
}

TEST_F(Geo, EmptyArrayIsNoGeo) {
  ASSERT_TRUE(read(with_targeting(R"({"geo":[]})")).ok());
  EXPECT_TRUE(placement().targeting.geo().empty());
}

TEST_F(Geo, InvalidItemsAre10017AtTheirIndex) {
  // 0, negatives, floats (even integral ones), empty and non-digit strings, overflow, and
  // anything not a number or string.
  read(with_targeting(R"({"geo":[1, 0, -1, 1.5, 2.0, 1e3, "", "12a", " 12", "-1", "+1",
                                 18446744073709551616, "18446744073709551616", "0",
                                 true, null, {}, [1], 2]})"));
  ASSERT_EQ(result_.status, ReadStatus::kInvalidRequest);
  std::vector<Error> expected;
  for (int i = 1; i <= 17; ++i) {
    expected.push_back({10017, "placements[0].targeting.geo[" + std::to_string(i) + "]"});
  }
  EXPECT_EQ(errors(), expected);
  EXPECT_EQ(result_.errors[0].message, "geo ids must be positive integers");
}

TEST_F(Geo, NotAnArrayIs10017) {
  EXPECT_EQ(only_error(with_targeting(R"({"geo":2988507})")),
            (Error{10017, "placements[0].targeting.geo"}));
  EXPECT_EQ(only_error(with_targeting(R"({"geo":"2988507"})")),
            (Error{10017, "placements[0].targeting.geo"}));
}

TEST_F(Geo, SixtyFourIdsAreAccepted) {
  ASSERT_TRUE(read(with_targeting(R"({"geo":)" + id_array(64) + "}")).ok());
  EXPECT_EQ(placement().targeting.geo().size(), 64u);
}

TEST_F(Geo, MoreThanSixtyFourIdsIs10017) {
  EXPECT_EQ(only_error(with_targeting(R"({"geo":)" + id_array(65) + "}")),
            (Error{10017, "placements[0].targeting.geo"}));
  EXPECT_EQ(result_.errors[0].message, "geo must have at most 64 ids");
  EXPECT_EQ(reader_.counters().geo_over_limit, 1u);
}

using Destination = ReaderTest;

TEST_F(Destination, IdsAreReadLikeGeo) {
  ASSERT_TRUE(read(with_targeting(R"({"destination":[2267057,"2988507"]})")).ok());
  EXPECT_EQ(ids(placement().targeting.destination()), (std::vector<uint64_t>{2267057, 2988507}));
}

TEST_F(Destination, InvalidIs10017) {
  EXPECT_EQ(only_error(with_targeting(R"({"destination":[1,-5]})")),
            (Error{10017, "placements[0].targeting.destination[1]"}));
  EXPECT_EQ(only_error(with_targeting(R"({"destination":{"id":1}})")),
            (Error{10017, "placements[0].targeting.destination"}));
  EXPECT_EQ(only_error(with_targeting(R"({"destination":)" + id_array(65) + "}")),
            (Error{10017, "placements[0].targeting.destination"}));
}

TEST_F(Destination, IsIgnoredWhenTheVersionDoesNotUnderstandIt) {
  for (const char* destination : {"[2267057]", "[-5, 0]", R"("everywhere")", R"({"a":[{}]})"}) {
    ASSERT_TRUE(read(with_targeting(std::string(R"({"destination":)") + destination + "}"),
                     v2025_01_01())
                    .ok())
        << destination;
    EXPECT_TRUE(placement().targeting.destination().empty());
  }
}

TEST_F(Destination, IgnoredStillMustBeJson) {
  EXPECT_EQ(read(with_targeting(R"({"destination":[01]})"), v2025_01_01()).status,
            ReadStatus::kInvalidJson);
}

}  // namespace
}  // namespace decision::request
