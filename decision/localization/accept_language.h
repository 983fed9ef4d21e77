#pragma once
// The Accept-Language request header (RFC 9110 section 12.5.4), parsed without allocating:
//   Accept-Language = #( language-range [ OWS ";" OWS "q=" qvalue ] )
//   language-range  = 1*8ALPHA *( "-" 1*8alphanum ) / "*"
//   qvalue          = "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3"0" ]
// Case-insensitive; whitespace around items, ";" and "=" tolerated. A malformed item (bad
// range, bad or repeated weight, any other parameter) is skipped, not fatal: the rest of a
// client's preferences still count. The first kMaxLanguageRanges well-formed items are
// kept, later ones ignored (browsers send 2 to 10).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace decision::localization {

inline constexpr size_t kMaxLanguageRanges = 16;
inline constexpr std::string_view kAcceptLanguageHeader = "Accept-Language";

struct LanguageRange {
  std::string_view range;   // as sent ("fr-CA", "*"): a view into the header value
  uint16_t q_milli = 1000;  // weight in thousandths, 0..1000
};

class LanguagePreferences {
 public:
  // Acceptable ranges (q > 0), best first: descending q, equal q in header order.
  std::span<const LanguageRange> preferred() const { return {ranges_.data(), preferred_count_}; }
  // Ranges with q=0: "not acceptable" (RFC 9110 section 12.4.2), in header order.
  std::span<const LanguageRange> excluded() const {
    return {ranges_.data() + preferred_count_, excluded_count_};
  }
  // False when the header is absent, empty, or holds no well-formed item: the client
  // stated no language (warning 20001).
  bool present() const { return preferred_count_ + excluded_count_ > 0; }
  // Items skipped as malformed, and well-formed items beyond the bound (for metrics).
  uint32_t malformed_items() const { return malformed_items_; }
  uint32_t ignored_items() const { return ignored_items_; }

 private:
  friend LanguagePreferences parse_accept_language(std::optional<std::string_view> header);

  std::array<LanguageRange, kMaxLanguageRanges> ranges_{};
  size_t preferred_count_ = 0;
  size_t excluded_count_ = 0;
  uint32_t malformed_items_ = 0;
  uint32_t ignored_items_ = 0;
};

// header: the header's value, nullopt when the request has none. The result points into
// the value, which must outlive it.
LanguagePreferences parse_accept_language(std::optional<std::string_view> header);

}  // namespace decision::localization
