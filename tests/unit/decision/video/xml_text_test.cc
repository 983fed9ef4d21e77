// XML text written by hand: escaping per context, CDATA split around "]]>", and characters
// XML 1.0 forbids replaced rather than passed on to break a player's parser.
#include "decision/video/xml_text.h"

#include <gtest/gtest.h>

#include <string>

namespace decision::video {
namespace {

std::string text(std::string_view in) {
  std::string out;
  append_xml_text(out, in);
  return out;
}

std::string attribute(std::string_view in) {
  std::string out;
  append_xml_attribute(out, in);
  return out;
}

std::string cdata(std::string_view in) {
  std::string out;
  append_cdata(out, in);
  return out;
}

TEST(XmlText, PlainTextIsCopiedAsIs) {
  EXPECT_EQ(text("Fly to Lisbon, Zürich 東京 🎬"), "Fly to Lisbon, Zürich 東京 🎬");
  EXPECT_EQ(text(""), "");
}

TEST(XmlText, MarkupCharactersAreEscaped) {
  EXPECT_EQ(text("a < b & c > d \"q\" 'a'"), "a &lt; b &amp; c &gt; d \"q\" 'a'");
  EXPECT_EQ(text("]]>"), "]]&gt;");
}

TEST(XmlText, WhitespaceControlsStayInTextButAreReferencedInAttributes) {
  // A carriage return is referenced in text too: parsers read a literal one as a line feed.
  EXPECT_EQ(text("a\tb\nc\rd"), "a\tb\nc&#13;d");
  EXPECT_EQ(attribute("a\tb\nc\rd \"e\""), "a&#9;b&#10;c&#13;d &quot;e&quot;");
}

TEST(XmlText, ForbiddenCharactersBecomeTheReplacementCharacter) {
  EXPECT_EQ(text(std::string("a\x01" "b\x1f" "c", 5)), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c");
  EXPECT_EQ(text(std::string("\0", 1)), "\xEF\xBF\xBD");
  EXPECT_EQ(attribute("\x02"), "\xEF\xBF\xBD");
  EXPECT_EQ(cdata("\x02"), "<![CDATA[\xEF\xBF\xBD]]>");
}

TEST(XmlText, NonCharactersFFFEAndFFFFAreReplacedButNotTheirNeighbours) {
  EXPECT_EQ(text("x\xEF\xBF\xBEy\xEF\xBF\xBFz"), "x\xEF\xBF\xBDy\xEF\xBF\xBDz");
  // U+FFFD itself, U+FEFF and other EF-led characters pass.
  EXPECT_EQ(text("\xEF\xBF\xBD\xEF\xBB\xBF\xEF\xBC\x81"), "\xEF\xBF\xBD\xEF\xBB\xBF\xEF\xBC\x81");
  // A truncated sequence at the end is left to the catalog's UTF-8 check, not read past.
  EXPECT_EQ(text("\xEF\xBF"), "\xEF\xBF");
}

TEST(XmlCdata, UrlsAreFramedAsIs) {
  EXPECT_EQ(cdata("https://a.example/x?a=1&b=<2>"), "<![CDATA[https://a.example/x?a=1&b=<2>]]>");
}

TEST(XmlCdata, EveryEndMarkerInsideIsSplitAcrossTwoSections) {
  EXPECT_EQ(cdata("a]]>b"), "<![CDATA[a]]]]><![CDATA[>b]]>");
  EXPECT_EQ(cdata("]]>]]>"), "<![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]>");
  EXPECT_EQ(cdata("]]]>"), "<![CDATA[]]]]]><![CDATA[>]]>");
  EXPECT_EQ(cdata("]>]]"), "<![CDATA[]>]]]]>");
  EXPECT_EQ(cdata(">"), "<![CDATA[>]]>");
}

TEST(XmlCdata, CarriageReturnsStepOutAsReferences) {
  EXPECT_EQ(cdata("a\r\nb"), "<![CDATA[a]]>&#13;<![CDATA[\nb]]>");
}

std::string uri(std::string_view in) {
  std::string out;
  append_uri(out, in);
  return out;
}

TEST(XmlUri, AUrlThatIsAlreadyAUriIsLeftByteForByte) {
  const std::string_view signed_url =
      "https://cdn.example.com/v/1.mp4?Expires=1795000000&Signature=a~b_c-d.e%2Bf%3D&Key-Pair-Id=K2#t=10";
  EXPECT_EQ(uri(signed_url), signed_url);
  EXPECT_EQ(uri("https://[2001:db8::1]:8443/v.mp4"), "https://[2001:db8::1]:8443/v.mp4");
}

TEST(XmlUri, WhatRfc3986NeverAllowsIsPercentEncoded) {
  EXPECT_EQ(uri("https://a.example/x?q=]]>&r=<s>&t=\"u\""), "https://a.example/x?q=%5D%5D%3E&r=%3Cs%3E&t=%22u%22");
  EXPECT_EQ(uri("https://a.example/{a}|b\\c^d`e"), "https://a.example/%7Ba%7D%7Cb%5Cc%5Ed%60e");
  EXPECT_EQ(uri("https://a.example/Zürich"), "https://a.example/Z%C3%BCrich");
  EXPECT_EQ(uri("https://a.example/a[1]"), "https://a.example/a%5B1%5D");
  EXPECT_EQ(uri("https://a.example/x#a#b"), "https://a.example/x#a%23b");
  EXPECT_EQ(uri("https://a.example/100%?p=%zz&q=%4"), "https://a.example/100%25?p=%25zz&q=%254");
}

TEST(XmlUri, ACdataUriNeverHoldsTheSectionEnd) {
  std::string out;
  append_cdata_uri(out, "https://a]]>b.example/]]>");
  EXPECT_EQ(out, "<![CDATA[https://a]]%3Eb.example/%5D%5D%3E]]>");
}

}  // namespace
}  // namespace decision::video
