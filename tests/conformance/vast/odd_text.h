#pragma once
// The characters a VAST writer gets wrong: CDATA terminators, markup, quotes, non-ASCII,
// control characters and non-characters, spelled once here for every generated field, and
// what a conforming XML reader must see of them.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace conformance::vast {

// Deterministic across standard libraries: raw mt19937 draws, never a distribution.
class Draw {
 public:
  explicit Draw(uint32_t seed) : engine_(seed) {}
  // 0..n-1
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(engine_() % n); }
  bool coin() { return below(2) == 1; }

 private:
  std::mt19937 engine_;
};

// Every odd piece of text a text field must carry: "]]>", "]]]>", <, >, &, both quotes,
// "Zürich 東京 🎬", U+0001, U+007F, U+FFFE. Shuffled by draw, with a few extras (other
// scripts, tab and newline inside, "<![CDATA[", entity-looking text). Never starts or ends
// with whitespace: players trim element text (vast-client's parseNodeText).
std::string odd_text(Draw& draw, std::string_view base);

// A URL of the catalog's rules (decision/catalog/text_formats.cc is_http_url: http(s), no
// byte <= 0x20 nor 0x7f) that is no URI: <, >, both quotes, \ ^ ` { | }, non-ASCII and
// U+FFFE in its path and query, a '%' without two hex digits, "]]>" / "]]]>" in its
// fragment and, with brackets_in_query, in its query too; sometimes a second '#'.
// path_tail ends the path, e.g. "v.mp4".
std::string odd_url(Draw& draw, std::string_view host, std::string_view path_tail, bool brackets_in_query);

// A URL that is already an RFC 3986 URI, with every character a URI allows outside
// letters and digits (an IPv6 literal host on some draws): served byte for byte.
std::string uri_url(Draw& draw, std::string_view path_tail);

// The URI a catalog URL is served as (docs/video.md "Text, URLs and the schema"): bytes a
// URI never allows percent-encoded as %XX, upper-case hex (non-ASCII as its UTF-8 bytes;
// " < > \ ^ ` { | }; '[' and ']' outside the host; every '#' after the first; a '%' not
// followed by two hex digits), every other byte unchanged.
std::string as_uri(std::string_view url);

// text as an XML reader must report it from our document: characters XML 1.0 forbids
// (C0 controls but tab, newline and carriage return; U+FFFE, U+FFFF) as U+FFFD, the rest
// unchanged.
std::string as_xml_reads(std::string_view text);

// A JSON string literal of text: control characters and U+007F as \u00XX escapes (so the
// catalog spells them the way the issue asks), quotes and backslashes escaped, the rest raw.
std::string json_string(std::string_view text);

}  // namespace conformance::vast
