// The error envelope, byte for byte:
// {"success":false,"data":null,"errors":[{code,message,details}],"warnings":null}
#include <gtest/gtest.h>

#include <span>
#include <string>

#include "http/error_body.h"
#include "http/response.h"
#include "tests/unit/http/json_check.h"

namespace http {
namespace {

using testing::is_valid_json;

std::string envelope(std::span<const ErrorItem> errors) {
  std::string out;
  append_error_envelope(out, errors);
  return out;
}

TEST(ErrorBody, OneErrorWithoutFieldHasEmptyDetails) {
  const ErrorItem error{10004, "no such route", {}};
  EXPECT_EQ(envelope({&error, 1}),
            R"({"success":false,"data":null,"errors":[{"code":10004,"message":"no such route",)"
            R"("details":{}}],"warnings":null})");
}

TEST(ErrorBody, FieldGoesInDetails) {
  const ErrorItem error{10001, "must be positive", "items[0].count"};
  EXPECT_EQ(envelope({&error, 1}),
            R"({"success":false,"data":null,"errors":[{"code":10001,"message":"must be positive",)"
            R"("details":{"field":"items[0].count"}}],"warnings":null})");
}

TEST(ErrorBody, SeveralErrorsAreCommaSeparatedInOrder) {
  const ErrorItem errors[] = {{1, "a", "x"}, {2, "b", {}}};
  EXPECT_EQ(envelope(errors),
            R"({"success":false,"data":null,"errors":[)"
            R"({"code":1,"message":"a","details":{"field":"x"}},)"
            R"({"code":2,"message":"b","details":{}}],"warnings":null})");
}

TEST(ErrorBody, NoErrorsIsAnEmptyList) {
  EXPECT_EQ(envelope({}), R"({"success":false,"data":null,"errors":[],"warnings":null})");
}

TEST(ErrorBody, MessageAndFieldAreEscaped) {
  const ErrorItem error{10001, "bad \"name\"\n", "a\\b"};
  const std::string out = envelope({&error, 1});
  EXPECT_NE(out.find(R"("message":"bad \"name\"\n")"), std::string::npos) << out;
  EXPECT_NE(out.find(R"("field":"a\\b")"), std::string::npos) << out;
  EXPECT_TRUE(is_valid_json(out));
}

TEST(ErrorBody, SetErrorReplacesTheResponseWithJsonError) {
  Response response;
  response.set_text(200, "partial output");
  set_error(response, 422, 10001, "bad field", "slot");
  EXPECT_EQ(response.status(), 422);
  EXPECT_EQ(response.content_type(), "application/json");
  EXPECT_EQ(response.body(),
            R"({"success":false,"data":null,"errors":[{"code":10001,"message":"bad field",)"
            R"("details":{"field":"slot"}}],"warnings":null})");
}

}  // namespace
}  // namespace http
