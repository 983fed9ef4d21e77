#include "decision/request/tcf_consent.h"

#include <algorithm>
#include <cstddef>

namespace decision::request {
namespace {

constexpr uint8_t kNotADigit = 0xFF;

// The 6-bit value of each base64url character (RFC 4648 section 5), kNotADigit for others.
constexpr std::array<uint8_t, 256> make_digit_values() {
  std::array<uint8_t, 256> values{};
  values.fill(kNotADigit);
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (size_t i = 0; i < kAlphabet.size(); ++i) {
    values[static_cast<unsigned char>(kAlphabet[i])] = static_cast<uint8_t>(i);
  }
  return values;
}
constexpr std::array<uint8_t, 256> kDigitValues = make_digit_values();

uint8_t digit_value(char c) { return kDigitValues[static_cast<unsigned char>(c)]; }

// Field widths of the core string, in bits.
constexpr uint32_t kVersionBits = 6;
constexpr uint32_t kTimestampBits = 36;     // Created, LastUpdated
constexpr uint32_t kCmpBits = 12;           // CmpId, CmpVersion
constexpr uint32_t kConsentScreenBits = 6;
constexpr uint32_t kLetterBits = 6;         // ConsentLanguage, PublisherCC: two each
constexpr uint32_t kLetterMax = 25;         // 'Z'
constexpr uint32_t kVendorListVersionBits = 12;
constexpr uint32_t kPolicyVersionBits = 6;
constexpr uint32_t kSpecialFeatureBits = 12;
constexpr uint32_t kPurposeBits = 24;       // PurposesConsent, PurposesLITransparency
constexpr uint32_t kVendorIdBits = 16;      // MaxVendorId, StartVendorId, EndVendorId
constexpr uint32_t kCountBits = 12;         // NumEntries, NumPubRestrictions
constexpr uint32_t kPurposeIdBits = 6;
constexpr uint32_t kRestrictionTypeBits = 2;
constexpr uint32_t kSegmentTypeBits = 3;

// Big-endian fields out of the digits of one base64url segment, in place. Every digit must
// be of the alphabet (checked beforehand). Reading past the end yields zeros and marks the
// reader exhausted, so a decoder reads on and checks once: counts read as zero, so no
// loop runs long on a truncated string.
class SegmentBitReader {
 public:
  explicit SegmentBitReader(std::string_view digits)
      : digits_(digits), size_bits_(digits.size() * 6) {}

  uint64_t read(uint32_t width) {  // width <= 64
    if (width > size_bits_ - position_) {
      exhausted_ = true;
      position_ = size_bits_;
      return 0;
    }
    uint64_t value = 0;
    for (uint32_t i = 0; i < width; ++i) value = (value << 1) | bit(position_ + i);
    position_ += width;
    return value;
  }
  bool read_flag() { return read(1) != 0; }
  void skip(size_t width) {
    if (width > size_bits_ - position_) {
      exhausted_ = true;
      position_ = size_bits_;
      return;
    }
    position_ += width;
  }
  bool exhausted() const { return exhausted_; }
  bool rest_is_zero() const {
    for (size_t i = position_; i < size_bits_; ++i) {
      if (bit(i) != 0) return false;
    }
    return true;
  }

 private:
  uint64_t bit(size_t index) const {
    return (digit_value(digits_[index / 6]) >> (5 - index % 6)) & 1u;
  }

  std::string_view digits_;
  size_t size_bits_;
  size_t position_ = 0;
  bool exhausted_ = false;
};

// NumEntries, then each entry: IsARange, StartVendorId [, EndVendorId].
void skip_range_entries(SegmentBitReader& bits) {
  const uint64_t entries = bits.read(kCountBits);
  for (uint64_t i = 0; i < entries && !bits.exhausted(); ++i) {
    const bool is_range = bits.read_flag();
    bits.skip(is_range ? 2 * kVendorIdBits : kVendorIdBits);
  }
}

// The vendor consent or vendor legitimate interest section.
void skip_vendor_section(SegmentBitReader& bits) {
  const uint64_t max_vendor_id = bits.read(kVendorIdBits);
  const bool is_range_encoding = bits.read_flag();
  if (is_range_encoding) {
    skip_range_entries(bits);
  } else {
    bits.skip(max_vendor_id);
  }
}

void skip_publisher_restrictions(SegmentBitReader& bits) {
  const uint64_t restrictions = bits.read(kCountBits);
  for (uint64_t i = 0; i < restrictions && !bits.exhausted(); ++i) {
    bits.skip(kPurposeIdBits + kRestrictionTypeBits);
    skip_range_entries(bits);
  }
}

TcfFault decode_core(std::string_view core, TcfConsent& out) {
  SegmentBitReader bits(core);
  const uint64_t version = bits.read(kVersionBits);  // a segment has at least 6 bits
  if (version == 1) return TcfFault::kVersion1;
  if (version != 2) return TcfFault::kUnknownVersion;
  bits.skip(2 * kTimestampBits);  // Created, LastUpdated
  out.cmp_id = static_cast<uint16_t>(bits.read(kCmpBits));
  out.cmp_version = static_cast<uint16_t>(bits.read(kCmpBits));
  bits.skip(kConsentScreenBits);
  const uint64_t language[2] = {bits.read(kLetterBits), bits.read(kLetterBits)};
  out.vendor_list_version = static_cast<uint16_t>(bits.read(kVendorListVersionBits));
  bits.skip(kPolicyVersionBits + 1 + 1);  // + IsServiceSpecific, UseNonStandardTexts
  bits.skip(kSpecialFeatureBits);
  out.purposes_consent = static_cast<uint32_t>(bits.read(kPurposeBits));
  bits.skip(kPurposeBits);  // PurposesLITransparency
  bits.skip(1 + 2 * kLetterBits);  // PurposeOneTreatment, PublisherCC
  skip_vendor_section(bits);  // consent
  skip_vendor_section(bits);  // legitimate interest
  skip_publisher_restrictions(bits);
  if (bits.exhausted()) return TcfFault::kCoreTruncated;
  if (language[0] > kLetterMax || language[1] > kLetterMax) return TcfFault::kLanguageNotLetters;
  if (!bits.rest_is_zero()) return TcfFault::kTrailingBits;
  out.consent_language = {static_cast<char>('A' + language[0]),
                          static_cast<char>('A' + language[1])};
  out.purpose1_consented = out.purpose_consented(1);
  return TcfFault::kNone;
}

// Every segment non-empty and of the alphabet.
TcfFault check_segments(std::string_view text) {
  bool segment_start = true;
  for (char c : text) {
    if (c == '.') {
      if (segment_start) return TcfFault::kEmptySegment;
      segment_start = true;
    } else if (digit_value(c) != kNotADigit) {
      segment_start = false;
    } else {
      return c == '=' ? TcfFault::kPadding : TcfFault::kNotBase64url;
    }
  }
  return segment_start ? TcfFault::kEmptySegment : TcfFault::kNone;
}

// SegmentType of each segment after the core (their first digit holds it).
TcfFault check_segment_types(std::string_view rest) {
  for (size_t dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.', dot + 1)) {
    const uint8_t type = digit_value(rest[dot + 1]) >> (6 - kSegmentTypeBits);
    if (type < 1 || type > 3) return TcfFault::kUnknownSegmentType;
  }
  return TcfFault::kNone;
}

}  // namespace

std::optional<TcfConsent> decode_tcf_consent(std::string_view text, TcfFault& fault) {
  fault = check_segments(text);
  if (fault != TcfFault::kNone) return std::nullopt;
  const size_t core_end = std::min(text.find('.'), text.size());
  TcfConsent consent;
  fault = decode_core(text.substr(0, core_end), consent);
  if (fault == TcfFault::kNone) fault = check_segment_types(text.substr(core_end));
  if (fault != TcfFault::kNone) return std::nullopt;
  return consent;
}

}  // namespace decision::request
