#include "tests/conformance/vast/odd_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <vector>

namespace conformance::vast {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The issue's list, each in every text field.
constexpr std::array<std::string_view, 11> kRequiredPieces = {
    "]]>", "]]]>", "<", ">", "&", "\"", "'", "Zürich 東京 🎬", "\x01", "\x7f", "\xEF\xBF\xBE",
};
constexpr std::array<std::string_view, 10> kExtraPieces = {
    "مرحبا", "Ελληνικά", "€ß", "&amp;", "<![CDATA[", "\ttab", "new\nline", "\xEF\xBF\xBF", "&#38;", "--",
};

template <typename T>
void shuffle(Draw& draw, std::vector<T>& items) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[draw.below(i)]);
}

template <size_t N>
std::string_view pick(Draw& draw, const std::array<std::string_view, N>& options) {
  return options[draw.below(N)];
}

}  // namespace

std::string odd_text(Draw& draw, std::string_view base) {
  std::vector<std::string_view> pieces(kRequiredPieces.begin(), kRequiredPieces.end());
  for (size_t extras = draw.below(3); extras > 0; --extras) pieces.push_back(pick(draw, kExtraPieces));
  shuffle(draw, pieces);
  std::string text(base);
  for (std::string_view piece : pieces) {
    text.append(draw.coin() ? " " : "");
    text.append(piece);
  }
  text.append(" !");
  return text;
}

std::string odd_url(Draw& draw, std::string_view host, std::string_view path_tail, bool brackets_in_query) {
  static constexpr std::array<std::string_view, 3> kSchemes = {"https://", "http://", "HTTPS://"};
  static constexpr std::array<std::string_view, 4> kSegments = {"{x}|y^z`", "a\\b", "q'\"<>", "&amp;"};
  static constexpr std::array<std::string_view, 4> kFragments = {"#]]>", "#t=]]]>x", "#]]>]]>", "#a#b]]>"};
  std::string url(pick(draw, kSchemes));
  url.append(host);
  url.append("/Zürich/東京/🎬/");
  url.append(pick(draw, kSegments));
  url.append(draw.coin() ? "/\xEF\xBF\xBE/" : "/");
  url.append(path_tail);
  url.append("?a=<x>&b=\"q\"&c='s'&d=Zürich東京🎬&e=%41&p=%zz&q=%4");
  if (brackets_in_query) url.append(draw.coin() ? "&f=]]>&g=]]]>" : "&f=]]]>&g=[x]]>");
  url.append(pick(draw, kFragments));
  return url;
}

std::string uri_url(Draw& draw, std::string_view path_tail) {
  std::string url = draw.coin() ? "https://[2001:db8::1]:8443" : "http://user:pw@cdn.example.com:8080";
  url.append("/a-b._~/c:d@e!$&'()*+,;=/%7E%2f/");
  url.append(path_tail);
  url.append("?Expires=1795535035&Signature=abc~def-_.&Key-Pair-Id=K%2F1&s=!$'()*+,;=:@/?");
  url.append("#frag/?:@!$&'()*+,;=");
  return url;
}

std::string as_uri(std::string_view url) {
  constexpr std::string_view kNeverInUri = "\"<>\\^`{|}";
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  const size_t host = url.find("://") + 3;
  const size_t host_end = std::min(url.size(), url.find_first_of("/?#", host));
  const size_t fragment = url.find('#');
  std::string out;
  for (size_t i = 0; i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    const bool encode = c >= 0x80 || kNeverInUri.find(static_cast<char>(c)) != std::string_view::npos ||
                        ((c == '[' || c == ']') && (i < host || i >= host_end)) || (c == '#' && i != fragment) ||
                        (c == '%' && !(i + 2 < url.size() && hex(url[i + 1]) && hex(url[i + 2])));
    if (encode) {
      char escape[4];
      std::snprintf(escape, sizeof(escape), "%%%02X", c);
      out.append(escape);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string as_xml_reads(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out.append(kReplacement);
    } else if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
               (static_cast<unsigned char>(text[i + 2]) == 0xBE || static_cast<unsigned char>(text[i + 2]) == 0xBF)) {
      out.append(kReplacement);
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20 || c == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\u%04x", c);
      out.append(escape);
    } else {
      out.push_back(ch);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace conformance::vast
