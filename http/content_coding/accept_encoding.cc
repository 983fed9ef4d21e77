#include "http/content_coding/accept_encoding.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "runtime/absl_view.h"

namespace http::content_coding {
namespace {

bool is_ows(char c) { return c == ' ' || c == '\t'; }

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && is_ows(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ows(s.back())) s.remove_suffix(1);
  return s;
}

// RFC 9110 5.6.2 tchar.
bool is_tchar(char c) {
  if (absl::ascii_isalnum(static_cast<unsigned char>(c))) return true;
  switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+':
    case '-': case '.': case '^': case '_': case '`': case '|': case '~':
      return true;
    default:
      return false;
  }
}

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_tchar(c)) return false;
  }
  return true;
}

// RFC 9110 12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), in thousandths.
std::optional<int16_t> parse_qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return std::nullopt;
  const bool one = text[0] == '1';
  if (text.size() == 1) return static_cast<int16_t>(one ? 1000 : 0);
  if (text[1] != '.' || text.size() > 5) return std::nullopt;
  int16_t thousandths = 0;
  int16_t scale = 100;
  for (char c : text.substr(2)) {
    if (c < '0' || c > '9') return std::nullopt;
    if (one && c != '0') return std::nullopt;
    thousandths = static_cast<int16_t>(thousandths + (c - '0') * scale);
    scale = static_cast<int16_t>(scale / 10);
  }
  return static_cast<int16_t>(one ? 1000 : thousandths);
}

// One list item: "coding", "coding;q=0.5", "coding ; Q=1". nullopt: not an item we can read.
struct Item {
  std::string_view coding;
  int16_t weight = 1000;
};

std::optional<Item> parse_item(std::string_view text) {
  Item item;
  const size_t semicolon = text.find(';');
  item.coding = trim_ows(text.substr(0, semicolon));
  if (!is_token(item.coding)) return std::nullopt;
  if (semicolon == std::string_view::npos) return item;
  // Accept-Encoding has one parameter, the weight: anything else, or a second one, makes
  // the item unreadable rather than guessed at.
  const std::string_view parameter = trim_ows(text.substr(semicolon + 1));
  if (parameter.size() < 2 || (parameter[0] != 'q' && parameter[0] != 'Q') || parameter[1] != '=') {
    return std::nullopt;
  }
  const std::optional<int16_t> weight = parse_qvalue(parameter.substr(2));
  if (!weight) return std::nullopt;
  item.weight = *weight;
  return item;
}

void rate(int16_t& slot, int16_t weight) {
  if (slot == AcceptedCodings::kUnrated) slot = weight;
}

// The weight the list gives coding: its own item, else `*`'s.
int16_t weight_of(int16_t named, const AcceptedCodings& accepted) {
  return named != AcceptedCodings::kUnrated ? named : accepted.any;
}

}  // namespace

void AcceptedCodings::add_field(std::string_view value) {
  present = true;
  while (!value.empty()) {
    const size_t comma = value.find(',');
    const std::string_view text = trim_ows(value.substr(0, comma));
    value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
    if (text.empty()) continue;  // RFC 9110 5.6.1: empty list elements are allowed
    const std::optional<Item> item = parse_item(text);
    if (!item) continue;
    const absl::string_view name = runtime::av(item->coding);
    if (absl::EqualsIgnoreCase(name, "gzip") || absl::EqualsIgnoreCase(name, "x-gzip")) {
      rate(gzip, item->weight);
    } else if (absl::EqualsIgnoreCase(name, "zstd")) {
      rate(zstd, item->weight);
    } else if (absl::EqualsIgnoreCase(name, "identity")) {
      rate(identity, item->weight);
    } else if (name == "*") {
      rate(any, item->weight);
    }
  }
}

Coding choose_coding(const AcceptedCodings& accepted, CodingSet offered) {
  if (!accepted.present || !offered.any()) return Coding::kIdentity;
  Coding best = Coding::kIdentity;
  int16_t best_weight = 0;
  // zstd first: on a tie it stays (as small as gzip on our replies, for half the CPU).
  if (offered.zstd) {
    const int16_t w = weight_of(accepted.zstd, accepted);
    if (w > best_weight) {
      best = Coding::kZstd;
      best_weight = w;
    }
  }
  if (offered.gzip) {
    const int16_t w = weight_of(accepted.gzip, accepted);
    if (w > best_weight) {
      best = Coding::kGzip;
      best_weight = w;
    }
  }
  if (best == Coding::kIdentity) return best;
  // identity unrated and not covered by `*` is acceptable but preferred to nothing named.
  const int16_t identity = weight_of(accepted.identity, accepted);
  return identity > best_weight ? Coding::kIdentity : best;
}

Coding negotiate(const Request& request, CodingSet offered) {
  if (!offered.any()) return Coding::kIdentity;
  AcceptedCodings accepted;
  for (size_t i = 0; i < request.header_count; ++i) {
    if (absl::EqualsIgnoreCase(runtime::av(request.headers[i].name), "accept-encoding")) {
      accepted.add_field(request.headers[i].value);
    }
  }
  return choose_coding(accepted, offered);
}

}  // namespace http::content_coding
