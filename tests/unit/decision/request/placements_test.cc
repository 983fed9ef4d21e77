// placements (10010) and placements[].key (10012).
#include "reader_fixture.h"

namespace decision::request {
namespace {

std::string placements_of(int n, std::string_view item = R"({"key":"p"})") {
  std::string body = R"({"placements":[)";
  for (int i = 0; i < n; ++i) {
    if (i > 0) body += ',';
    body += item;
  }
  return body + "]}";
}

using Placements = ReaderTest;

TEST_F(Placements, MissingIs10010) {
  EXPECT_EQ(only_error("{}"), (Error{10010, "placements"}));
  EXPECT_EQ(only_error(R"({"user":{}})"), (Error{10010, "placements"}));
}

TEST_F(Placements, NullIsMissing) {
  EXPECT_EQ(only_error(R"({"placements":null})"), (Error{10010, "placements"}));
  EXPECT_EQ(result_.errors[0].message, "placements is required");
}

TEST_F(Placements, NotAnArrayIs10010) {
  EXPECT_EQ(only_error(R"({"placements":{"key":"a"}})"), (Error{10010, "placements"}));
  EXPECT_EQ(only_error(R"({"placements":"home_top"})"), (Error{10010, "placements"}));
}

TEST_F(Placements, EmptyIs10010) {
  EXPECT_EQ(only_error(R"({"placements":[]})"), (Error{10010, "placements"}));
  EXPECT_EQ(result_.errors[0].message, "placements must not be empty");
}

TEST_F(Placements, TwentyAreAccepted) {
  ASSERT_TRUE(read(placements_of(20)).ok());
  EXPECT_EQ(request().placements().size(), 20u);
}

TEST_F(Placements, TwentyOneIs10010) {
  EXPECT_EQ(only_error(placements_of(21)), (Error{10010, "placements"}));
  EXPECT_EQ(result_.errors[0].message, "placements must have at most 20 items");
  EXPECT_EQ(reader_.counters().placements_over_limit, 1u);
}

TEST_F(Placements, ItemsPastTwentyAreCheckedAsJsonOnly) {
  std::string body = placements_of(20);
  body.insert(body.size() - 2, R"(,{"count":"x"})");
  EXPECT_EQ(only_error(body), (Error{10010, "placements"}));
  body.insert(body.size() - 3, ",");  // {"count":"x",} is not JSON
  EXPECT_EQ(read(body).status, ReadStatus::kInvalidJson);
}

TEST_F(Placements, ItemNotAnObjectIs10010AtItsIndex) {
  EXPECT_EQ(only_error(R"({"placements":[{"key":"a"},"home_top"]})"),
            (Error{10010, "placements[1]"}));
  EXPECT_EQ(only_error(R"({"placements":[null]})"), (Error{10010, "placements[0]"}));
}

using PlacementKey = ReaderTest;

TEST_F(PlacementKey, MissingIs10012) {
  EXPECT_EQ(only_error(R"({"placements":[{"count":2}]})"), (Error{10012, "placements[0].key"}));
  EXPECT_EQ(result_.errors[0].message, "key is required");
  EXPECT_EQ(only_error(R"({"placements":[{"key":null}]})"), (Error{10012, "placements[0].key"}));
}

TEST_F(PlacementKey, NotAStringIs10012) {
  EXPECT_EQ(only_error(R"({"placements":[{"key":7}]})"), (Error{10012, "placements[0].key"}));
  EXPECT_EQ(only_error(R"({"placements":[{"key":["a"]}]})"), (Error{10012, "placements[0].key"}));
}

TEST_F(PlacementKey, EmptyIs10012) {
  EXPECT_EQ(only_error(R"({"placements":[{"key":""}]})"), (Error{10012, "placements[0].key"}));
}

TEST_F(PlacementKey, LongerThan256BytesIs10012) {
  const std::string at_bound(256, 'k');
  ASSERT_TRUE(read(R"({"placements":[{"key":")" + at_bound + R"("}]})").ok());
  EXPECT_EQ(only_error(R"({"placements":[{"key":")" + at_bound + R"(k"}]})"),
            (Error{10012, "placements[0].key"}));
}

TEST_F(PlacementKey, EscapesAreDecoded) {
  ASSERT_TRUE(read(R"({"placements":[{"key":"home\u005ftop\n\u00e9"}]})").ok());
  EXPECT_EQ(placement().key, "home_top\n\xC3\xA9");
}

}  // namespace
}  // namespace decision::request
