#include "decision/video/xml_text.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace decision::video {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// What a byte needs, per context. 0: copied as is.
enum Need : uint8_t { kCopy = 0, kEscape = 1, kForbidden = 2, kMaybeNonCharacter = 3 };

constexpr std::array<uint8_t, 256> needs(bool attribute) {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = kForbidden;
  table['\t'] = table['\n'] = attribute ? kEscape : kCopy;
  // A parser turns a literal carriage return (and CR LF) into a line feed, in text too:
  // only a reference keeps it.
  table['\r'] = kEscape;
  table['&'] = table['<'] = table['>'] = kEscape;
  if (attribute) table['"'] = kEscape;
  table[0xEF] = kMaybeNonCharacter;  // U+FFFE and U+FFFF are EF BF BE and EF BF BF
  return table;
}
constexpr std::array<uint8_t, 256> kTextNeeds = needs(false);
constexpr std::array<uint8_t, 256> kAttributeNeeds = needs(true);

std::string_view escape_of(char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\t': return "&#9;";
    case '\n': return "&#10;";
    case '\r': return "&#13;";
  }
  return {};
}

bool is_non_character_at(std::string_view text, size_t i) {
  return i + 2 < text.size() && static_cast<uint8_t>(text[i + 1]) == 0xBF &&
         (static_cast<uint8_t>(text[i + 2]) == 0xBE || static_cast<uint8_t>(text[i + 2]) == 0xBF);
}

// Copies runs of plain bytes whole, and handles each byte the table flags.
void append_with(std::string& out, std::string_view text, const std::array<uint8_t, 256>& table) {
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const uint8_t need = table[static_cast<uint8_t>(text[i])];
    if (need == kCopy) continue;
    if (need == kMaybeNonCharacter && !is_non_character_at(text, i)) continue;
    out.append(text.data() + run, i - run);
    if (need == kEscape) {
      out.append(escape_of(text[i]));
    } else {
      out.append(kReplacement);
      if (need == kMaybeNonCharacter) i += 2;
    }
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

// The CDATA context: only forbidden characters matter, and "]]>" is split.
constexpr std::array<uint8_t, 256> cdata_needs() {
  std::array<uint8_t, 256> table = needs(false);
  table['&'] = table['<'] = kCopy;
  table['>'] = kEscape;  // checked for a preceding "]]"
  table['\r'] = kEscape;  // a reference between two sections
  return table;
}
constexpr std::array<uint8_t, 256> kCdataNeeds = cdata_needs();

}  // namespace

void append_xml_text(std::string& out, std::string_view text) { append_with(out, text, kTextNeeds); }

void append_xml_attribute(std::string& out, std::string_view text) { append_with(out, text, kAttributeNeeds); }

void append_cdata_content(std::string& out, std::string_view text) {
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const uint8_t need = kCdataNeeds[static_cast<uint8_t>(text[i])];
    if (need == kCopy) continue;
    if (need == kMaybeNonCharacter && !is_non_character_at(text, i)) continue;
    if (text[i] == '\r') {
      // CDATA cannot keep a carriage return either: it steps out for a reference.
      out.append(text.data() + run, i - run);
      out.append("]]>&#13;<![CDATA[");
      run = i + 1;
      continue;
    }
    if (need == kEscape) {
      if (i < 2 || text[i - 1] != ']' || text[i - 2] != ']') continue;
      // "]]" ends this section; ">" starts the next.
      out.append(text.data() + run, i - run);
      out.append("]]><![CDATA[");
      run = i;
      continue;
    }
    out.append(text.data() + run, i - run);
    out.append(kReplacement);
    if (need == kMaybeNonCharacter) i += 2;
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

namespace {

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool never_in_uri(uint8_t c) {
  return c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' ||
         c == '{' || c == '|' || c == '}';
}

void append_percent_encoded(std::string& out, uint8_t c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  out.push_back('%');
  out.push_back(kDigits[c >> 4]);
  out.push_back(kDigits[c & 15]);
}

}  // namespace

void append_uri(std::string& out, std::string_view url) {
  // The authority runs from "//" to the first of "/?#" after it.
  const size_t scheme_end = url.find("://");
  const size_t authority_begin = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const size_t authority_end = std::min(url.size(), url.find_first_of("/?#", authority_begin));
  bool in_fragment = false;
  for (size_t i = 0; i < url.size(); ++i) {
    const auto c = static_cast<uint8_t>(url[i]);
    bool encode = never_in_uri(c);
    if ((c == '[' || c == ']') && (i < authority_begin || i >= authority_end)) encode = true;
    if (c == '#') {
      encode = in_fragment;
      in_fragment = true;
    }
    if (c == '%' && !(i + 2 < url.size() && is_hex_digit(url[i + 1]) && is_hex_digit(url[i + 2]))) encode = true;
    if (encode) {
      append_percent_encoded(out, c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
}

void append_cdata_uri(std::string& out, std::string_view url) {
  out.append("<![CDATA[");
  append_uri(out, url);
  out.append("]]>");
}

void append_cdata(std::string& out, std::string_view text) {
  out.append("<![CDATA[");
  append_cdata_content(out, text);
  out.append("]]>");
}

}  // namespace decision::video
