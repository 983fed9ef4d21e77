// How errors are reported: all together, in document order, each with its path.
#include "decision/request/error_list.h"
#include "http/error_body.h"
#include "reader_fixture.h"
#include "simdjson.h"

namespace decision::request {
namespace {

using ValidationErrors = ReaderTest;

TEST_F(ValidationErrors, SeveralAreReportedTogetherInDocumentOrder) {
  read(R"({
    "placements": [
      {"key": "a", "count": 0, "advertiserId": "adv_1",
       "targeting": {"geo": [1, "x"], "location": [{"lat": 1, "lon": 2}, {"lat": 100}],
                     "custom": {"o": {}}, "destination": "d"}},
      {"count": 2, "templateId": "t", "format": "audio"}
    ],
    "user": {"id": 1, "ip": "x", "timezone": "Nowhere", "consent": {"gdpr": 1}},
    "device": 1,
    "app": []
  })");
  ASSERT_EQ(result_.status, ReadStatus::kInvalidRequest);
  EXPECT_EQ(result_.http_status(), 422);
  // A missing field is reported where its object ends.
  EXPECT_EQ(errors(), (std::vector<Error>{
                          {10013, "placements[0].count"},
                          {10014, "placements[0].advertiserId"},
                          {10017, "placements[0].targeting.geo[1]"},
                          {10018, "placements[0].targeting.location[1].lat"},
                          {10018, "placements[0].targeting.location[1].lon"},
                          {10019, "placements[0].targeting.custom.o"},
                          {10017, "placements[0].targeting.destination"},
                          {10015, "placements[1].templateId"},
                          {10016, "placements[1].format"},
                          {10012, "placements[1].key"},
                          {10020, "user.id"},
                          {10020, "user.ip"},
                          {10020, "user.timezone"},
                          {10020, "user.consent.gdpr"},
                          {10021, "device"},
                          {10021, "app"},
                      }));
}

TEST_F(ValidationErrors, MissingPlacementsComesLast) {
  read(R"({"user":{"id":5},"device":"d"})");
  EXPECT_EQ(errors(), (std::vector<Error>{{10020, "user.id"}, {10021, "device"}, {10010, "placements"}}));
}

TEST_F(ValidationErrors, EnvelopeCarriesCodeMessageAndField) {
  read(with_placement_fields(R"("count":0)"));
  std::string body;
  http::append_error_envelope(body, result_.errors);
  EXPECT_EQ(body,
            R"({"success":false,"data":null,"errors":[{"code":10013,"message":"count must be an integer from 1 to 10","details":{"field":"placements[0].count"}}],"warnings":null})");
}

TEST_F(ValidationErrors, PastTheBoundAreCountedNotListed) {
  // 20 placements of 64 bad geo ids each: 1280 errors.
  std::string geo = "[";
  for (int i = 0; i < 64; ++i) geo += i ? ",0" : "0";
  geo += "]";
  std::string body = R"({"placements":[)";
  for (int i = 0; i < 20; ++i) {
    body += std::string(i ? "," : "") + R"({"key":"k","targeting":{"geo":)" + geo + "}}";
  }
  body += "]}";
  read(body);
  ASSERT_EQ(result_.status, ReadStatus::kInvalidRequest);
  EXPECT_EQ(result_.errors.size(), ErrorList::kMaxErrors);
  EXPECT_EQ(result_.errors_dropped, 1280 - ErrorList::kMaxErrors);
  EXPECT_EQ(errors().back(), (Error{10017, "placements[1].targeting.geo[35]"}));
  EXPECT_EQ(reader_.counters().errors_dropped, 1280 - ErrorList::kMaxErrors);
}

TEST_F(ValidationErrors, InvalidJsonAnywhereWinsOverValidationErrors) {
  const ReadResult result = read(R"({"placements":[{"count":0}],"x":[1,2,]})");
  EXPECT_EQ(result.status, ReadStatus::kInvalidJson);
  EXPECT_EQ(result.http_status(), 400);
  EXPECT_EQ(errors(), (std::vector<Error>{{10001, ""}}));
}

TEST(ErrorListPaths, ForgetUnderRemovesThePathAndItsDescendantsOnly) {
  ErrorList list;
  JsonPath path;
  path.push_key("placements");
  path.push_index(0);
  path.push_key("count");
  list.add(1, "a", path);
  path.pop();
  path.push_key("countdown");
  list.add(2, "b", path);
  path.pop();
  path.push_key("targeting");
  path.push_key("geo");
  path.push_index(3);
  list.add(3, "c", path);
  path.clear();
  path.push_key("placements");
  path.push_index(0);
  path.push_key("count");
  list.forget_under(path);
  ASSERT_EQ(list.items().size(), 2u);
  EXPECT_EQ(list.items()[0].field, "placements[0].countdown");
  path.pop();
  path.push_key("targeting");
  list.forget_under(path);
  ASSERT_EQ(list.items().size(), 1u);
}

TEST(ErrorListPaths, PathTooLongNamesItsLongestAncestorThatFits) {
  ErrorList list;
  JsonPath path;
  path.push_key("placements");
  path.push_index(0);
  const std::string long_key(ErrorList::kMaxPathBytes, 'k');
  path.push_key(long_key);
  list.add(1, "m", path);
  ASSERT_EQ(list.items().size(), 1u);
  EXPECT_EQ(list.items()[0].field, "placements[0]");
}

}  // namespace
}  // namespace decision::request
