// The tolerant reader and the JSON edges: unknown fields, duplicates, null, BOM, nesting,
// and what makes a body not JSON (10001).
#include "reader_fixture.h"

namespace decision::request {
namespace {

std::string nested_arrays(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

using UnknownFields = ReaderTest;

TEST_F(UnknownFields, AreIgnoredAtEveryLevel) {
  ASSERT_TRUE(read(R"({"v":1,"placements":[{"key":"a","x":{"y":[null,true,-1.5e-3,"\ud83d\ude00"]},
                       "targeting":{"geo":[1],"weather":"rain","location":[{"lat":1,"lon":2,"alt":3}],
                       "custom":{"k":"v"}},"priority":"high"}],
                       "user":{"id":"u","age":40,"consent":{"gdpr":true,"ccpa":"1YNN"}},
                       "site":{"page":"/"},"imp":[{}]})")
                  .ok())
      << ::testing::PrintToString(errors());
  EXPECT_EQ(placement().key, "a");
  EXPECT_EQ(placement().targeting.geo().size(), 1u);
  EXPECT_EQ(request().user.gdpr, GdprConsent::kGranted);
}

TEST_F(UnknownFields, MustStillBeJson) {
  for (const char* bad : {R"({"placements":[{"key":"a"}],"x":[1 2]})",
                          R"({"placements":[{"key":"a"}],"x":01})",
                          R"({"placements":[{"key":"a"}],"x":-})",
                          R"({"placements":[{"key":"a"}],"x":1.})",
                          R"({"placements":[{"key":"a"}],"x":.5})",
                          R"({"placements":[{"key":"a"}],"x":tru})",
                          R"({"placements":[{"key":"a"}],"x":nul})",
                          R"({"placements":[{"key":"a"}],"x":"\x"})",
                          R"({"placements":[{"key":"a"}],"x":{"\q":1}})",
                          R"({"placements":[{"key":"a","x":[}]})",
                          R"({"placements":[{"key":"a"}],"x":NaN})",
                          R"({"placements":[{"key":"a"}],"x":'s'})",
                          R"({"placements":[{"key":"a"}],"x":{"a" 1}})",
                          R"({"placements":[{"key":"a"}],"x":{"a":1,}})",
                          R"({"placements":[{"key":"a"}],"user":{"x":"\ud800"}})"}) {
    EXPECT_EQ(read(bad).status, ReadStatus::kInvalidJson) << bad;
  }
}

using DuplicateKeys = ReaderTest;

// Last one wins, as JSON.parse and most parsers do; the errors of the earlier value go.
TEST_F(DuplicateKeys, LastOneWins) {
  ASSERT_TRUE(read(with_placement_fields(R"("count":0,"count":2)")).ok());
  EXPECT_EQ(placement().count, 2u);
  EXPECT_EQ(only_error(with_placement_fields(R"("count":2,"count":0)")),
            (Error{10013, "placements[0].count"}));
  ASSERT_TRUE(read(R"({"placements":[{"key":"a"}],"placements":[{"key":"b"},{"key":"c"}]})").ok());
  ASSERT_EQ(request().placements().size(), 2u);
  EXPECT_EQ(placement().key, "b");
  ASSERT_TRUE(read(R"({"placements":"x","placements":[{"key":"b"}]})").ok());
  ASSERT_TRUE(read(with_placement_fields(R"("key":5,"key":"z")")).ok());
  EXPECT_EQ(placement().key, "z");
}

TEST_F(DuplicateKeys, ForgetTheErrorsOfTheEarlierValueOnly) {
  read(R"({"placements":[{"key":"a","targeting":{"geo":[0],"custom":1},"count":0,
                          "targeting":{"geo":[1]}}],"user":{"ip":"x"}})");
  EXPECT_EQ(errors(), (std::vector<Error>{{10013, "placements[0].count"}, {10020, "user.ip"}}));
  EXPECT_EQ(placement().targeting.geo()[0], 1u);
}

TEST_F(DuplicateKeys, BothSpellingsOfACoordinateAreOneField) {
  ASSERT_TRUE(read(with_targeting(R"({"location":[{"lat":100,"latitude":45,"lon":1}]})")).ok());
  EXPECT_EQ(placement().targeting.location()[0].lat_deg, 45);
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":45,"latitude":100,"lon":1}]})")),
            (Error{10018, "placements[0].targeting.location[0].latitude"}));
}

TEST_F(DuplicateKeys, KeysAreComparedUnescaped) {
  ASSERT_TRUE(read(R"({"pl\u0061cements":[{"k\u0065y":"a"}]})").ok());
  EXPECT_EQ(placement().key, "a");
}

using NullValues = ReaderTest;

TEST_F(NullValues, MeanAbsentForOptionalFields) {
  ASSERT_TRUE(read(R"({"placements":[{"key":"a","count":null,"advertiserId":null,"templateId":null,
                       "format":null,"targeting":{"geo":null,"location":null,"custom":null,
                       "destination":null}}],
                       "user":{"id":null,"ip":null,"timezone":null,"consent":null},
                       "device":null,"app":null})")
                  .ok())
      << ::testing::PrintToString(errors());
  EXPECT_EQ(placement().count, 1u);
  EXPECT_FALSE(request().user.id);
}

using ByteOrderMark = ReaderTest;

TEST_F(ByteOrderMark, LeadingUtf8BomIsIgnored) {
  ASSERT_TRUE(read("\xEF\xBB\xBF{\"placements\":[{\"key\":\"a\"}]}").ok());
  EXPECT_EQ(placement().key, "a");
}

TEST_F(ByteOrderMark, BomAnywhereElseIsNotJson) {
  EXPECT_EQ(read("\xEF\xBB\xBF\xEF\xBB\xBF{\"placements\":[{\"key\":\"a\"}]}").status,
            ReadStatus::kInvalidJson);
  EXPECT_EQ(read("{\"placements\":[{\"key\":\"a\"}]}\xEF\xBB\xBF").status, ReadStatus::kInvalidJson);
  EXPECT_EQ(read("\xEF\xBB\xBF").status, ReadStatus::kInvalidJson);
}

using Nesting = ReaderTest;

TEST_F(Nesting, TenThousandArraysInDeviceIs400NotACrash) {
  const ReadResult result =
      read(R"({"placements":[{"key":"a"}],"device":{"x":)" + nested_arrays(10'000) + "}}");
  EXPECT_EQ(result.status, ReadStatus::kInvalidJson);
  EXPECT_EQ(result.errors[0].message, "body nests arrays and objects deeper than 64 levels");
  EXPECT_EQ(reader_.counters().too_deep, 1u);
}

TEST_F(Nesting, DeepObjectsInAnUnknownFieldAre400) {
  std::string deep;
  for (int i = 0; i < 100'000; ++i) deep += R"({"a":)";
  deep += "1" + std::string(100'000, '}');
  EXPECT_EQ(read(R"({"placements":[{"key":"a","x":)" + deep + "}]}").status,
            ReadStatus::kInvalidJson);
}

TEST_F(Nesting, UnclosedDeepArraysAre400) {
  EXPECT_EQ(read(R"({"placements":[{"key":"a"}],"device":)" + std::string(50'000, '[')).status,
            ReadStatus::kInvalidJson);
}

TEST_F(Nesting, SixtyFourLevelsAreAccepted) {
  // root object (1), device object (2), then 62 arrays: 64 levels.
  ASSERT_TRUE(read(R"({"placements":[{"key":"a"}],"device":{"x":)" + nested_arrays(62) + "}}").ok());
  EXPECT_EQ(read(R"({"placements":[{"key":"a"}],"device":{"x":)" + nested_arrays(63) + "}}").status,
            ReadStatus::kInvalidJson);
}

using NotJson = ReaderTest;

TEST_F(NotJson, EmptyOrBlankBodyIs10001) {
  EXPECT_EQ(read("").status, ReadStatus::kInvalidJson);
  EXPECT_EQ(read(" \r\n\t").status, ReadStatus::kInvalidJson);
  EXPECT_EQ(errors(), (std::vector<Error>{{10001, ""}}));
}

TEST_F(NotJson, TrailingContentIs10001) {
  for (const char* body : {R"({"placements":[{"key":"a"}]} x)", R"({"placements":[{"key":"a"}]}})",
                           R"({"placements":[{"key":"a"}]}{})", R"({"placements":[{"key":"a"}]},)",
                           R"({"placements":[{"key":"a"}]} "s")", R"({"placements":[{"key":"a"}]}0)"}) {
    EXPECT_EQ(read(body).status, ReadStatus::kInvalidJson) << body;
    EXPECT_EQ(result_.errors[0].message, "body is not valid JSON");
  }
  ASSERT_TRUE(read("{\"placements\":[{\"key\":\"a\"}]} \r\n\t").ok());
}

TEST_F(NotJson, InvalidUtf8AnywhereIs10001) {
  EXPECT_EQ(read("{\"placements\":[{\"key\":\"a\xC3\"}]}").status, ReadStatus::kInvalidJson);
  EXPECT_EQ(read("{\"placements\":[{\"key\":\"a\"}],\"x\":\"\xFF\"}").status,
            ReadStatus::kInvalidJson);
  EXPECT_EQ(read("{\"placements\":[{\"key\":\"a\"}],\"\xED\xA0\x80\":1}").status,
            ReadStatus::kInvalidJson);
}

TEST_F(NotJson, ControlCharacterInAStringIs10001) {
  EXPECT_EQ(read("{\"placements\":[{\"key\":\"a\tb\"}]}").status, ReadStatus::kInvalidJson);
}

TEST_F(NotJson, NotAnObjectIs10001) {
  for (const char* body : {"[]", R"([{"placements":[{"key":"a"}]}])", "1", R"("x")", "true", "null"}) {
    EXPECT_EQ(read(body).status, ReadStatus::kInvalidJson) << body;
    EXPECT_EQ(result_.errors[0].message, "body must be a JSON object") << body;
  }
  EXPECT_EQ(read("[1,]").status, ReadStatus::kInvalidJson);
  EXPECT_EQ(result_.errors[0].message, "body is not valid JSON");
}

TEST_F(NotJson, BodyOfNulBytesIs10001) {
  EXPECT_EQ(read(std::string_view("\0\0\0", 3)).status, ReadStatus::kInvalidJson);
  EXPECT_EQ(read(std::string_view("{\"placements\":[{\"key\":\"a\"}]}\0", 30)).status,
            ReadStatus::kInvalidJson);
}

}  // namespace
}  // namespace decision::request
