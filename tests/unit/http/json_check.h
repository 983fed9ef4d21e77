#pragma once
// Reads JSON back with simdjson, which also validates UTF-8: what the writer produces
// must be accepted by an independent parser, not just look right.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <string_view>

namespace http::testing {

inline ::testing::AssertionResult is_valid_json(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::error_code error = parser.parse(simdjson::padded_string(json)).get(root);
  if (error) {
    return ::testing::AssertionFailure() << simdjson::error_message(error) << " in " << json;
  }
  return ::testing::AssertionSuccess();
}

// The text a JSON string literal stands for; "<invalid>" when it does not parse.
inline std::string decoded_string(std::string_view json) {
  simdjson::dom::parser parser;
  std::string_view text;
  if (parser.parse(simdjson::padded_string(json)).get_string().get(text)) return "<invalid>";
  return std::string(text);
}

}  // namespace http::testing
