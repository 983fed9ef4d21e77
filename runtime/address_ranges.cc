#include "runtime/address_ranges.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"

namespace runtime {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

absl::Status bad_item(std::string_view item, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("'", av(item), "' is not an address range (", av(why), ")"));
}

}  // namespace

absl::StatusOr<AddressRanges> AddressRanges::parse(std::string_view text) {
  AddressRanges out;
  if (trim(text).empty()) return out;
  for (;;) {
    const size_t comma = text.find(',');
    const std::string_view item = trim(text.substr(0, comma));
    if (item.empty()) return bad_item(item, "empty item");
    const size_t slash = item.find('/');
    const std::optional<IpAddress> address = IpAddress::parse(item.substr(0, slash));
    if (!address) return bad_item(item, "not an IPv4 or IPv6 address");
    const bool mapped = address->family == IpAddress::Family::kV4 && item.substr(0, slash).find(':') != std::string_view::npos;
    const unsigned width = address->family == IpAddress::Family::kV4 ? 32 : 128;
    const unsigned written_width = mapped ? 128 : width;
    unsigned prefix = written_width;
    if (slash != std::string_view::npos) {
      const std::string_view digits = item.substr(slash + 1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || prefix > written_width) {
        return bad_item(item, absl::StrCat("prefix length must be 0 to ", written_width));
      }
    }
    if (mapped) {
      if (prefix < 96) return bad_item(item, "an IPv4-mapped range needs a prefix of at least 96");
      prefix -= 96;
    }
    Range range{address->family, address->bytes, static_cast<uint8_t>(prefix)};
    for (unsigned bit = prefix; bit < width; ++bit) {
      if (range.bytes[bit / 8] & (0x80u >> (bit % 8))) return bad_item(item, "address bits set past the prefix");
    }
    if (out.ranges_.size() == kMaxRanges) {
      return absl::InvalidArgumentError(absl::StrCat("more than ", kMaxRanges, " address ranges"));
    }
    out.ranges_.push_back(range);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

bool AddressRanges::matches(const Range& range, const IpAddress& address) {
  if (range.family != address.family) return false;
  const unsigned whole = range.prefix_bits / 8;
  for (unsigned i = 0; i < whole; ++i) {
    if (range.bytes[i] != address.bytes[i]) return false;
  }
  const unsigned rest = range.prefix_bits % 8;
  if (rest == 0) return true;
  const uint8_t mask = static_cast<uint8_t>(0xff00u >> rest);
  return (range.bytes[whole] & mask) == (address.bytes[whole] & mask);
}

bool AddressRanges::contains(const IpAddress& address) const {
  if (!address.known()) return false;
  for (const Range& range : ranges_) {
    if (matches(range, address)) return true;
  }
  return false;
}

}  // namespace runtime
