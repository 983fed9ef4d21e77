#include "tests/integration/reply_checks.h"

#include <simdjson.h>

namespace integration {

::testing::AssertionResult IsErrorEnvelope(const std::string& body, int64_t code) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(body).get(root) != simdjson::SUCCESS || !root.is_object()) {
    return ::testing::AssertionFailure() << "not a JSON object: " << body;
  }
  const simdjson::dom::object envelope = root.get_object().value();
  if (envelope.size() != 4) return ::testing::AssertionFailure() << "expected exactly 4 keys: " << body;
  bool success = true;
  if (envelope["success"].get(success) != simdjson::SUCCESS || success) {
    return ::testing::AssertionFailure() << "success is not false: " << body;
  }
  if (!envelope["data"].is_null()) return ::testing::AssertionFailure() << "data is not null: " << body;
  if (!envelope["warnings"].is_null()) return ::testing::AssertionFailure() << "warnings is not null: " << body;
  simdjson::dom::array errors;
  if (envelope["errors"].get(errors) != simdjson::SUCCESS || errors.size() != 1) {
    return ::testing::AssertionFailure() << "errors is not an array of one: " << body;
  }
  const simdjson::dom::element error = errors.at(0).value();
  int64_t actual_code = 0;
  std::string_view message;
  simdjson::dom::object details;
  if (error["code"].get(actual_code) != simdjson::SUCCESS) {
    return ::testing::AssertionFailure() << "errors[0].code is not an integer: " << body;
  }
  if (actual_code != code) {
    return ::testing::AssertionFailure() << "errors[0].code is " << actual_code << ", expected " << code << ": " << body;
  }
  if (error["message"].get(message) != simdjson::SUCCESS || message.empty()) {
    return ::testing::AssertionFailure() << "errors[0].message is not a non-empty string: " << body;
  }
  if (error["details"].get(details) != simdjson::SUCCESS) {
    return ::testing::AssertionFailure() << "errors[0].details is not an object: " << body;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasDateAndContentLength(const HttpReply& reply) {
  if (reply.header_count("Date") != 1) {
    return ::testing::AssertionFailure() << reply.header_count("Date") << " Date headers in: " << reply.raw;
  }
  if (!is_imf_fixdate(*reply.header("Date"))) {
    return ::testing::AssertionFailure() << "Date is not an IMF-fixdate: " << *reply.header("Date");
  }
  if (reply.header_count("Content-Length") != 1) {
    return ::testing::AssertionFailure() << reply.header_count("Content-Length") << " Content-Length headers in: " << reply.raw;
  }
  if (*reply.header("Content-Length") != std::to_string(reply.body.size())) {
    return ::testing::AssertionFailure() << "Content-Length " << *reply.header("Content-Length") << " for a body of "
                                         << reply.body.size() << " bytes";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace integration
