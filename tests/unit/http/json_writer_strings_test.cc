// String escaping: any bytes in, valid JSON and valid UTF-8 out (RFC 8259 section 7).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "http/json_writer.h"
#include "tests/unit/http/json_check.h"

namespace http {
namespace {

using namespace std::string_literals;
using testing::decoded_string;
using testing::is_valid_json;

std::string json_string(std::string_view text) {
  std::string out;
  JsonWriter(out).string(text);
  return out;
}

TEST(JsonWriterStrings, QuoteIsEscaped) {
  EXPECT_EQ(json_string("say \"hi\""), R"("say \"hi\"")");
}

TEST(JsonWriterStrings, BackslashIsEscaped) {
  EXPECT_EQ(json_string(R"(C:\dir\)"), R"("C:\\dir\\")");
}

TEST(JsonWriterStrings, NamedControlCharactersUseShortEscapes) {
  EXPECT_EQ(json_string("\b\f\n\r\t"), R"("\b\f\n\r\t")");
}

TEST(JsonWriterStrings, EveryControlCharacterIsEscapedAndReadsBack) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int c = 0x00; c < 0x20; ++c) {
    SCOPED_TRACE(c);
    std::string escape = std::string("\\u00") + kHex[c >> 4] + kHex[c & 15];
    if (c == '\b') escape = "\\b";
    if (c == '\f') escape = "\\f";
    if (c == '\n') escape = "\\n";
    if (c == '\r') escape = "\\r";
    if (c == '\t') escape = "\\t";
    const std::string raw(1, static_cast<char>(c));
    const std::string json = json_string(raw);
    EXPECT_EQ(json, "\"" + escape + "\"");
    EXPECT_EQ(decoded_string(json), raw);
  }
}

TEST(JsonWriterStrings, PrintableAsciiAndDeletePassThrough) {
  std::string ascii;
  for (int c = 0x20; c < 0x80; ++c) {
    if (c != '"' && c != '\\') ascii.push_back(static_cast<char>(c));
  }
  EXPECT_EQ(json_string(ascii), "\"" + ascii + "\"");
}

TEST(JsonWriterStrings, ValidMultiByteUtf8PassesThrough) {
  // The first and last code point of each sequence length, and some in between.
  const std::string texts[] = {"\u0080",     "\u00e9",     "\u07ff",     "\u0800",
                               "\u20ac",     "\ud7ff",     "\ue000",     "\uffff",
                               "\U00010000", "\U0001F600", "\U0010FFFF", "na\u00efve \u65e5\u672c"};
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    const std::string json = json_string(text);
    EXPECT_EQ(json, "\"" + text + "\"");
    EXPECT_EQ(decoded_string(json), text);
  }
}

TEST(JsonWriterStrings, InvalidUtf8BytesAreEachReplaced) {
  const std::pair<std::string, std::string> cases[] = {
      {"\x80", R"(\ufffd)"},                          // lone continuation byte
      {"\xc0\xaf", R"(\ufffd\ufffd)"},                // overlong two-byte '/'
      {"\xc1\xbf", R"(\ufffd\ufffd)"},                // overlong two-byte
      {"\xe0\x80\xaf", R"(\ufffd\ufffd\ufffd)"},      // overlong three-byte
      {"\xed\xa0\x80", R"(\ufffd\ufffd\ufffd)"},      // UTF-16 surrogate U+D800
      {"\xf0\x80\x80\xaf", R"(\ufffd\ufffd\ufffd\ufffd)"},  // overlong four-byte
      {"\xf4\x90\x80\x80", R"(\ufffd\ufffd\ufffd\ufffd)"},  // above U+10FFFF
      {"\xf5\x80\x80\x80", R"(\ufffd\ufffd\ufffd\ufffd)"},  // lead byte never valid
      {"\xff", R"(\ufffd)"},
      {"a\xe2\x82", R"(a\ufffd\ufffd)"},              // truncated at the end
      {"\xe2\x82z", R"(\ufffd\ufffdz)"},              // truncated before ASCII
      {"\xc3\xa9\xc3", "\xc3\xa9" R"(\ufffd)"},       // valid, then a cut sequence
  };
  for (const auto& [raw, escaped] : cases) {
    SCOPED_TRACE(::testing::PrintToString(raw));
    const std::string json = json_string(raw);
    EXPECT_EQ(json, "\"" + escaped + "\"");
    EXPECT_TRUE(is_valid_json(json));
  }
}

TEST(JsonWriterStrings, MemberNamesAreEscapedLikeValues) {
  std::string out;
  JsonWriter(out).begin_object().key("a\"b\n\xff").number(1).end_object();
  EXPECT_EQ(out, R"({"a\"b\n\ufffd":1})");
  EXPECT_TRUE(is_valid_json(out));
}

TEST(JsonWriterStrings, AppendEscapedAddsNoQuotes) {
  std::string out = "prefix:";
  JsonWriter::append_escaped(out, "x\"y");
  EXPECT_EQ(out, R"(prefix:x\"y)");
}

TEST(JsonWriterStrings, EmbeddedNulIsKept) {
  EXPECT_EQ(decoded_string(json_string("a\0b"s)), "a\0b"s);
}

}  // namespace
}  // namespace http
