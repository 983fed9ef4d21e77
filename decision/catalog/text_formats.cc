#include "decision/catalog/text_formats.h"

#include <array>
#include <cctype>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "decision/catalog/limits.h"
#include "runtime/absl_view.h"

namespace decision::catalog {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }

// Exactly n digits at text[at..at+n).
std::optional<uint32_t> digits(std::string_view text, size_t at, size_t n) {
  if (at + n > text.size()) return std::nullopt;
  uint32_t value = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (!is_digit(text[i])) return std::nullopt;
    value = value * 10 + static_cast<uint32_t>(text[i] - '0');
  }
  return value;
}

template <typename Pred>
bool all_of(std::string_view text, Pred pred) {
  for (char c : text) {
    if (!pred(c)) return false;
  }
  return true;
}

}  // namespace

std::optional<int64_t> parse_rfc3339_s(std::string_view text) {
  absl::Time time;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, runtime::av(text), &time, &error)) return std::nullopt;
  return absl::ToUnixSeconds(time);
}

std::optional<uint16_t> parse_clock_minute(std::string_view text) {
  if (text.size() != 5 || text[2] != ':') return std::nullopt;
  const std::optional<uint32_t> hours = digits(text, 0, 2);
  const std::optional<uint32_t> minutes = digits(text, 3, 2);
  if (!hours || !minutes || *minutes > 59 || *hours > 24) return std::nullopt;
  if (*hours == 24 && *minutes != 0) return std::nullopt;
  return static_cast<uint16_t>(*hours * 60 + *minutes);
}

std::optional<int> parse_weekday(std::string_view text) {
  static constexpr std::array<std::string_view, 7> kNames = {"mon", "tue", "wed", "thu",
                                                             "fri", "sat", "sun"};
  for (size_t d = 0; d < kNames.size(); ++d) {
    if (absl::EqualsIgnoreCase(runtime::av(text), runtime::av(kNames[d])))
      return static_cast<int>(d);
  }
  return std::nullopt;
}

std::optional<SkipOffset> parse_skip_offset(std::string_view text) {
  SkipOffset offset;
  if (!text.empty() && text.back() == '%') {
    const std::string_view number = text.substr(0, text.size() - 1);
    if (number.empty() || number.size() > 3) return std::nullopt;
    const std::optional<uint32_t> percent = digits(number, 0, number.size());
    if (!percent || *percent > 100) return std::nullopt;
    offset.kind = SkipOffset::Kind::kPercent;
    offset.percent = *percent;
    return offset;
  }
  if (text.size() != 8 || text[2] != ':' || text[5] != ':') return std::nullopt;
  const std::optional<uint32_t> h = digits(text, 0, 2), m = digits(text, 3, 2),
                                s = digits(text, 6, 2);
  if (!h || !m || !s || *m > 59 || *s > 59) return std::nullopt;
  offset.kind = SkipOffset::Kind::kSeconds;
  offset.seconds = *h * 3600 + *m * 60 + *s;
  return offset;
}

std::optional<std::string> normalize_language_tag(std::string_view text) {
  if (text.empty() || text.size() > kMaxLanguageTagBytes) return std::nullopt;
  std::vector<std::string> subtags = absl::StrSplit(runtime::av(text), '-');
  const std::string& language = subtags[0];
  // ISO 639 codes only: BCP 47's 5..8-letter registered languages do not exist in practice,
  // and allowing them would take "English" for a tag.
  if (language.size() < 2 || language.size() > 3 || !all_of(language, is_alpha))
    return std::nullopt;
  bool in_extension = false;  // after a singleton ("x-", "u-"), casing rules stop
  for (size_t i = 0; i < subtags.size(); ++i) {
    std::string& tag = subtags[i];
    if (tag.empty() || tag.size() > 8 || !all_of(tag, is_alnum)) return std::nullopt;
    absl::AsciiStrToLower(&tag);
    if (i == 0 || in_extension) continue;
    if (tag.size() == 1) {
      in_extension = true;
    } else if (tag.size() == 2 && all_of(tag, is_alpha)) {
      absl::AsciiStrToUpper(&tag);  // region
    } else if (tag.size() == 4 && all_of(tag, is_alpha)) {
      tag[0] = absl::ascii_toupper(tag[0]);  // script
    }
  }
  if (subtags.back().size() == 1) return std::nullopt;  // a singleton needs a subtag after it
  return absl::StrJoin(subtags, "-");
}

bool is_http_url(std::string_view text) {
  if (text.size() > kMaxUrlBytes) return false;
  size_t rest = 0;
  if (absl::StartsWithIgnoreCase(runtime::av(text), "https://")) {
    rest = 8;
  } else if (absl::StartsWithIgnoreCase(runtime::av(text), "http://")) {
    rest = 7;
  } else {
    return false;
  }
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f) return false;
  }
  const size_t host_end = text.find_first_of("/?#", rest);
  const std::string_view host =
      text.substr(rest, host_end == std::string_view::npos ? host_end : host_end - rest);
  return !host.empty() && host.front() != ':' && host.front() != '@';
}

bool is_mime_type(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == text.size()) return false;
  auto token = [](char c) {
    return is_alnum(c) || std::string_view("!#$&^_.+-").find(c) != std::string_view::npos;
  };
  return all_of(text.substr(0, slash), token) && all_of(text.substr(slash + 1), token);
}

bool is_streaming_media_type(std::string_view mime_type) {
  for (std::string_view manifest : {"application/x-mpegurl", "application/vnd.apple.mpegurl",
                                    "audio/mpegurl", "application/dash+xml"}) {
    if (absl::EqualsIgnoreCase(runtime::av(mime_type), runtime::av(manifest))) return true;
  }
  return false;
}

std::string_view image_type_of_url(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  const size_t dot = url.rfind('.');
  if (dot == std::string_view::npos || url.find('/', dot) != std::string_view::npos) return "image/*";
  const std::string_view extension = url.substr(dot + 1);
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"png", "image/png"},   {"jpg", "image/jpeg"},     {"jpeg", "image/jpeg"}, {"gif", "image/gif"},
      {"webp", "image/webp"}, {"svg", "image/svg+xml"}, {"avif", "image/avif"},
  };
  for (const auto& [suffix, type] : kTypes) {
    if (absl::EqualsIgnoreCase(runtime::av(extension), runtime::av(suffix))) return type;
  }
  return "image/*";
}

bool is_aspect_ratio(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view w = text.substr(0, colon), h = text.substr(colon + 1);
  auto positive = [](std::string_view n) {
    return !n.empty() && n.size() <= 6 && all_of(n, is_digit) &&
           n.find_first_not_of('0') != std::string_view::npos;
  };
  return positive(w) && positive(h);
}

bool is_iana_zone_name(std::string_view text) {
  if (text.empty() || text.size() > 64) return false;
  // The same names user.timezone accepts (decision/request/time_zone_cache.cc): no
  // "localtime" (the host's zone), no posix/ or right/ duplicates.
  if (text == "localtime" || text.starts_with("posix/") || text.starts_with("right/")) return false;
  for (absl::string_view part : absl::StrSplit(runtime::av(text), '/')) {
    if (part.empty() || !is_alpha(part[0])) return false;
    for (char c : part) {
      if (!is_alnum(c) && c != '_' && c != '-' && c != '+') return false;
    }
  }
  return true;
}

bool is_custom_event_name(std::string_view text) {
  if (text.empty() || text.size() > kMaxCustomEventNameBytes) return false;
  if (text == "impression" || text == "click") return false;
  return all_of(text, [](char c) { return is_alnum(c) || c == '_' || c == '.' || c == '-'; });
}

}  // namespace decision::catalog
