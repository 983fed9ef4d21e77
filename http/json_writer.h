#pragma once
// Writes JSON straight into an output buffer: no DOM, no temporary strings. Commas are
// placed by the writer; strings are escaped so any input (control characters, invalid
// UTF-8) yields valid JSON and valid UTF-8.
#include <cstdint>
#include <string>
#include <string_view>

namespace http {

class JsonWriter {
 public:
  static constexpr int kMaxDepth = 64;

  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // An object member's name; the value call that follows completes it.
  JsonWriter& key(std::string_view name);
  // The same for a name spelled in the code (printable ASCII, no quote or backslash), which
  // is copied without an escape pass: hot writers name dozens of members per reply.
  JsonWriter& literal_key(std::string_view name);
  JsonWriter& string(std::string_view value);
  JsonWriter& number(int64_t value);
  JsonWriter& number(uint64_t value);
  JsonWriter& number(int value) { return number(static_cast<int64_t>(value)); }
  JsonWriter& number(double value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();
  // Already-valid JSON, inserted as one value.
  JsonWriter& raw(std::string_view json);
  // A string value whose characters the caller appends to the returned buffer between the
  // two calls, already JSON-safe (base64url tokens, digits, pre-escaped text): no scratch
  // copy and no escape pass.
  std::string& begin_verbatim_string();
  JsonWriter& end_verbatim_string();

  // Appends the escaped form of text, without quotes.
  static void append_escaped(std::string& out, std::string_view text);

 private:
  void before_value();

  std::string& out_;
  int depth_ = 0;
  uint64_t has_items_ = 0;  // bit per depth: a value was written at this level
  bool after_key_ = false;
};

}  // namespace http
