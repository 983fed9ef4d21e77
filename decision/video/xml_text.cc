#include "decision/video/xml_text.h"

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
  table['\t'] = table['\n'] = table['\r'] = attribute ? kEscape : kCopy;
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

void append_cdata(std::string& out, std::string_view text) {
  out.append("<![CDATA[");
  append_cdata_content(out, text);
  out.append("]]>");
}

}  // namespace decision::video
