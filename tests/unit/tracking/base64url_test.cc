// Unpadded base64url (RFC 4648 section 5) with a strict decoder: one spelling per byte string.
#include "tracking/tokens/base64url.h"

#include <gtest/gtest.h>

#include <string>

namespace tracking {
namespace {

std::string encoded(std::string_view bytes) {
  std::string out;
  base64url_encode(bytes, out);
  return out;
}

bool decodes(std::string_view text) {
  std::string out;
  return base64url_decode(text, out);
}

TEST(Base64url, Rfc4648TestVectorsWithoutPadding) {
  // RFC 4648 section 10, with the padding removed.
  EXPECT_EQ(encoded(""), "");
  EXPECT_EQ(encoded("f"), "Zg");
  EXPECT_EQ(encoded("fo"), "Zm8");
  EXPECT_EQ(encoded("foo"), "Zm9v");
  EXPECT_EQ(encoded("foob"), "Zm9vYg");
  EXPECT_EQ(encoded("fooba"), "Zm9vYmE");
  EXPECT_EQ(encoded("foobar"), "Zm9vYmFy");
}

TEST(Base64url, Rfc4648TestVectorsDecode) {
  for (const auto& [text, bytes] : std::initializer_list<std::pair<const char*, const char*>>{
           {"", ""}, {"Zg", "f"}, {"Zm8", "fo"}, {"Zm9v", "foo"}, {"Zm9vYg", "foob"},
           {"Zm9vYmE", "fooba"}, {"Zm9vYmFy", "foobar"}}) {
    std::string out;
    ASSERT_TRUE(base64url_decode(text, out)) << text;
    EXPECT_EQ(out, bytes) << text;
  }
}

TEST(Base64url, UsesMinusAndUnderscoreForTheLastTwoDigits) {
  EXPECT_EQ(encoded("\xfb\xff"), "-_8");          // standard base64: "+/8="
  EXPECT_EQ(encoded("\xff\xff\xfe"), "___-");     // standard base64: "///+"
  std::string out;
  ASSERT_TRUE(base64url_decode("-_8", out));
  EXPECT_EQ(out, "\xfb\xff");
}

TEST(Base64url, RoundTripsEveryLengthAndByteValue) {
  std::string bytes;
  for (int i = 0; i < 300; ++i) {
    bytes.push_back(static_cast<char>(i * 151 + 7));
    std::string out;
    ASSERT_TRUE(base64url_decode(encoded(bytes), out)) << i;
    EXPECT_EQ(out, bytes) << i;
    EXPECT_EQ(encoded(bytes).size(), base64url_encoded_size(bytes.size()));
  }
}

TEST(Base64url, EncodeAndDecodeAppendToTheOutput) {
  std::string out = "t=";
  base64url_encode("foo", out);
  EXPECT_EQ(out, "t=Zm9v");
  ASSERT_TRUE(base64url_decode("YmFy", out));
  EXPECT_EQ(out, "t=Zm9vbar");
}

TEST(Base64url, PaddingIsRefused) {
  EXPECT_FALSE(decodes("Zg=="));
  EXPECT_FALSE(decodes("Zg="));
  EXPECT_FALSE(decodes("Zm8="));
  EXPECT_FALSE(decodes("Zm9v===="));
}

TEST(Base64url, WhitespaceIsRefused) {
  EXPECT_FALSE(decodes(" Zm9v"));
  EXPECT_FALSE(decodes("Zm9v "));
  EXPECT_FALSE(decodes("Zm\n9v"));
  EXPECT_FALSE(decodes("Zm9v\r\n"));
  EXPECT_FALSE(decodes("Zm\t9v"));
}

TEST(Base64url, CharactersOutsideTheUrlAlphabetAreRefused) {
  EXPECT_FALSE(decodes("+/8"));   // the standard alphabet's last two digits
  EXPECT_FALSE(decodes("Zm9*"));
  EXPECT_FALSE(decodes("Zm.v"));
  EXPECT_FALSE(decodes(std::string_view("Zm\0v", 4)));
  EXPECT_FALSE(decodes("Zm9\xc3\xa9"));
}

TEST(Base64url, NonZeroUnusedBitsAreRefused) {
  // "Zg" is 'f'; "Zh".."Zv" would decode to 'f' too with their low bits ignored.
  EXPECT_FALSE(decodes("Zh"));
  EXPECT_FALSE(decodes("Zv"));
  EXPECT_FALSE(decodes("Zm9"));  // "Zm8" is "fo"
  EXPECT_FALSE(decodes("Zm-"));
}

TEST(Base64url, OneCharacterGroupIsRefused) {
  EXPECT_FALSE(decodes("Z"));
  EXPECT_FALSE(decodes("Zm9vY"));
}

TEST(Base64url, FailedDecodeLeavesTheOutputUnchanged) {
  std::string out = "kept";
  EXPECT_FALSE(base64url_decode("Zg==", out));
  EXPECT_EQ(out, "kept");
}

TEST(Base64url, DecodeIntoTooSmallABufferIsRefused) {
  uint8_t small[2];
  EXPECT_FALSE(base64url_decode("Zm9v", small).has_value());
  uint8_t enough[base64url_decoded_max_size(4)];
  EXPECT_EQ(base64url_decode("Zm9v", enough), 3u);
}

}  // namespace
}  // namespace tracking
