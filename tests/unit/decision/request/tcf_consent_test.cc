// TCF v2 TC strings: what is decoded, what is refused (tcf_consent.h). Strings are built by
// a test-only encoder with chosen fields, plus published strings whose decoded purpose
// consents are stated where they are published.
#include "decision/request/tcf_consent.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace decision::request {
namespace {

// ---- A test-only TC string encoder ------------------------------------------------------

class BitWriter {
 public:
  void put(uint64_t value, int width) {
    for (int i = width - 1; i >= 0; --i) bits_.push_back(((value >> i) & 1u) != 0);
  }
  // Zero bits up to a multiple of `multiple` bits, as encoders pad.
  void pad_to(size_t multiple) {
    while (bits_.size() % multiple != 0) bits_.push_back(false);
  }
  size_t size() const { return bits_.size(); }

  // The first `bit_count` bits as base64url, the last digit padded with zero bits.
  std::string base64url(size_t bit_count) const {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    for (size_t at = 0; at < bit_count; at += 6) {
      int digit = 0;
      for (size_t i = at; i < at + 6; ++i) digit = (digit << 1) | (i < bit_count && bits_[i]);
      out.push_back(kAlphabet[digit]);
    }
    return out;
  }
  std::string base64url() const { return base64url(bits_.size()); }

 private:
  std::vector<bool> bits_;
};

struct VendorRange {
  uint16_t start = 0;
  uint16_t end = 0;  // == start: a single vendor id
};

struct VendorSection {
  uint16_t max_vendor_id = 0;
  bool range_encoding = false;
  std::vector<uint16_t> bit_field_ids;  // set bits of the bit field (ids 1..max_vendor_id)
  std::vector<VendorRange> ranges;      // when range_encoding
};

VendorSection bit_field(uint16_t max_vendor_id, std::vector<uint16_t> ids) {
  VendorSection section;
  section.max_vendor_id = max_vendor_id;
  section.bit_field_ids = std::move(ids);
  return section;
}

VendorSection range_encoded(uint16_t max_vendor_id, std::vector<VendorRange> ranges) {
  VendorSection section;
  section.max_vendor_id = max_vendor_id;
  section.range_encoding = true;
  section.ranges = std::move(ranges);
  return section;
}

struct PublisherRestriction {
  uint8_t purpose_id = 1;
  uint8_t restriction_type = 0;
  std::vector<VendorRange> ranges;
};

constexpr uint32_t purposes(std::initializer_list<int> ids) {
  uint32_t mask = 0;
  for (int id : ids) mask |= 1u << (24 - id);
  return mask;
}

struct CoreFields {
  uint64_t version = 2;
  uint64_t created_ds = 17489088000;  // deciseconds since the epoch
  uint64_t last_updated_ds = 17489088000;
  uint64_t cmp_id = 300;
  uint64_t cmp_version = 12;
  uint64_t consent_screen = 1;
  uint64_t language[2] = {'F' - 'A', 'R' - 'A'};
  uint64_t vendor_list_version = 48;
  uint64_t policy_version = 4;
  bool service_specific = true;
  bool non_standard_texts = false;
  uint64_t special_features = 0b100000000000;
  uint32_t purposes_consent = purposes({1, 2, 3, 4});
  uint32_t purposes_li = purposes({2, 7});
  bool purpose_one_treatment = false;
  uint64_t publisher_cc[2] = {'D' - 'A', 'E' - 'A'};
  VendorSection vendor_consent;
  VendorSection vendor_li;
  std::vector<PublisherRestriction> restrictions;
};

void put_ranges(BitWriter& bits, const std::vector<VendorRange>& ranges) {
  bits.put(ranges.size(), 12);
  for (const VendorRange& range : ranges) {
    const bool is_range = range.end != range.start;
    bits.put(is_range, 1);
    bits.put(range.start, 16);
    if (is_range) bits.put(range.end, 16);
  }
}

void put_vendor_section(BitWriter& bits, const VendorSection& section) {
  bits.put(section.max_vendor_id, 16);
  bits.put(section.range_encoding, 1);
  if (section.range_encoding) {
    put_ranges(bits, section.ranges);
    return;
  }
  std::vector<bool> field(section.max_vendor_id, false);
  for (uint16_t id : section.bit_field_ids) field.at(id - 1) = true;
  for (bool bit : field) bits.put(bit, 1);
}

// Every field of the core segment, nothing after the last one.
BitWriter core_bits(const CoreFields& f) {
  BitWriter bits;
  bits.put(f.version, 6);
  bits.put(f.created_ds, 36);
  bits.put(f.last_updated_ds, 36);
  bits.put(f.cmp_id, 12);
  bits.put(f.cmp_version, 12);
  bits.put(f.consent_screen, 6);
  bits.put(f.language[0], 6);
  bits.put(f.language[1], 6);
  bits.put(f.vendor_list_version, 12);
  bits.put(f.policy_version, 6);
  bits.put(f.service_specific, 1);
  bits.put(f.non_standard_texts, 1);
  bits.put(f.special_features, 12);
  bits.put(f.purposes_consent, 24);
  bits.put(f.purposes_li, 24);
  bits.put(f.purpose_one_treatment, 1);
  bits.put(f.publisher_cc[0], 6);
  bits.put(f.publisher_cc[1], 6);
  put_vendor_section(bits, f.vendor_consent);
  put_vendor_section(bits, f.vendor_li);
  bits.put(f.restrictions.size(), 12);
  for (const PublisherRestriction& r : f.restrictions) {
    bits.put(r.purpose_id, 6);
    bits.put(r.restriction_type, 2);
    put_ranges(bits, r.ranges);
  }
  return bits;
}

// The core segment as an encoder writes it: padded with zero bits to whole bytes.
std::string encode_core(const CoreFields& fields) {
  BitWriter bits = core_bits(fields);
  bits.pad_to(8);
  return bits.base64url();
}

// A disclosed vendors (1), allowed vendors (2) or publisher TC (3) segment; any 3-bit type.
std::string encode_segment(uint64_t type) {
  BitWriter bits;
  bits.put(type, 3);
  if (type == 3) {
    bits.put(purposes({1}), 24);  // PubPurposesConsent
    bits.put(0, 24);              // PubPurposesLITransparency
    bits.put(0, 6);               // NumCustomPurposes
  } else {
    put_vendor_section(bits, bit_field(5, {1, 5}));
  }
  bits.pad_to(8);
  return bits.base64url();
}

// ---- Helpers ---------------------------------------------------------------------------

TcfFault fault_of(std::string_view text) {
  TcfFault fault = TcfFault::kNone;
  const std::optional<TcfConsent> consent = decode_tcf_consent(text, fault);
  EXPECT_EQ(consent.has_value(), fault == TcfFault::kNone) << text;
  return fault;
}

TcfConsent decoded(std::string_view text) {
  TcfFault fault = TcfFault::kNone;
  const std::optional<TcfConsent> consent = decode_tcf_consent(text, fault);
  EXPECT_TRUE(consent) << text << " fault " << static_cast<int>(fault);
  return consent.value_or(TcfConsent{});
}

CoreFields with_every_section() {
  CoreFields f;
  f.vendor_consent = bit_field(755, {1, 2, 10, 300, 755});
  f.vendor_li = range_encoded(1000, {{25, 25}, {40, 90}, {1000, 1000}});
  f.restrictions = {{.purpose_id = 2, .restriction_type = 1, .ranges = {{8, 8}, {10, 20}}},
                    {.purpose_id = 7, .restriction_type = 0, .ranges = {}}};
  return f;
}

// ---- What is decoded -------------------------------------------------------------------

TEST(TcfConsent, Purpose1ConsentedIsConsent) {
  CoreFields f;
  f.purposes_consent = purposes({1});
  const TcfConsent consent = decoded(encode_core(f));
  EXPECT_TRUE(consent.purpose1_consented);
  EXPECT_EQ(consent.purposes_consent, purposes({1}));
}

TEST(TcfConsent, Purpose1NotConsentedIsNoConsent) {
  CoreFields f;
  f.purposes_consent = 0;
  EXPECT_FALSE(decoded(encode_core(f)).purpose1_consented);
}

TEST(TcfConsent, OtherPurposesWithoutPurpose1AreNoConsent) {
  CoreFields f;
  f.purposes_consent = purposes({2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 24});
  f.purposes_li = purposes({1, 2, 3});  // legitimate interest is not consent
  const TcfConsent consent = decoded(encode_core(f));
  EXPECT_FALSE(consent.purpose1_consented);
  EXPECT_FALSE(consent.purpose_consented(1));
  EXPECT_TRUE(consent.purpose_consented(2));
  EXPECT_TRUE(consent.purpose_consented(24));
  EXPECT_FALSE(consent.purpose_consented(0));
  EXPECT_FALSE(consent.purpose_consented(25));
}

TEST(TcfConsent, FixedFieldsAreRead) {
  CoreFields f;
  f.cmp_id = 4095;
  f.cmp_version = 7;
  f.vendor_list_version = 143;
  f.language[0] = 'Z' - 'A';
  f.language[1] = 0;
  const TcfConsent consent = decoded(encode_core(f));
  EXPECT_EQ(consent.cmp_id, 4095);
  EXPECT_EQ(consent.cmp_version, 7);
  EXPECT_EQ(consent.vendor_list_version, 143);
  EXPECT_EQ(std::string(consent.consent_language.data(), 2), "ZA");
}

TEST(TcfConsent, BitFieldVendorSectionsAreRead) {
  CoreFields f;
  f.vendor_consent = bit_field(1200, {1, 600, 1200});
  f.vendor_li = bit_field(3, {3});
  f.purposes_consent = purposes({1, 10});
  EXPECT_TRUE(decoded(encode_core(f)).purpose1_consented);
}

TEST(TcfConsent, RangeVendorSectionsAreRead) {
  CoreFields f;
  f.vendor_consent = range_encoded(65535, {{1, 1}, {2, 500}, {65535, 65535}});
  f.vendor_li = range_encoded(0, {});
  EXPECT_TRUE(decoded(encode_core(f)).purpose1_consented);
}

TEST(TcfConsent, EmptyVendorSectionsAreRead) {
  CoreFields f;  // MaxVendorId 0 in bit field encoding: no bits follow
  EXPECT_TRUE(decoded(encode_core(f)).purpose1_consented);
}

TEST(TcfConsent, PublisherRestrictionsAreRead) {
  CoreFields f = with_every_section();
  f.purposes_consent = purposes({3});
  EXPECT_FALSE(decoded(encode_core(f)).purpose1_consented);
  f.purposes_consent = purposes({1, 3});
  EXPECT_TRUE(decoded(encode_core(f)).purpose1_consented);
}

TEST(TcfConsent, ZeroPaddingAfterTheCoreIsAccepted) {
  const BitWriter bits = core_bits(with_every_section());
  for (size_t pad_bits = 0; pad_bits <= 48; ++pad_bits) {
    BitWriter padded = bits;
    padded.put(0, static_cast<int>(pad_bits));
    EXPECT_EQ(fault_of(padded.base64url()), TcfFault::kNone) << pad_bits;
  }
}

TEST(TcfConsent, LaterSegmentsOfKnownTypesAreAccepted) {
  const std::string core = encode_core(CoreFields{});
  const std::string disclosed = encode_segment(1);
  const std::string allowed = encode_segment(2);
  const std::string publisher = encode_segment(3);
  for (const std::string& text :
       {core + "." + disclosed, core + "." + allowed, core + "." + publisher,
        core + "." + disclosed + "." + allowed + "." + publisher,
        core + "." + publisher + "." + disclosed,
        core + "." + disclosed + "." + disclosed}) {
    EXPECT_EQ(fault_of(text), TcfFault::kNone) << text;
    EXPECT_TRUE(decoded(text).purpose1_consented) << text;
  }
}

// ---- What is refused -------------------------------------------------------------------

TEST(TcfConsent, VersionOtherThan2IsRefused) {
  CoreFields f;
  f.version = 1;
  EXPECT_EQ(fault_of(encode_core(f)), TcfFault::kVersion1);
  for (uint64_t version : {0, 3, 63}) {
    f.version = version;
    EXPECT_EQ(fault_of(encode_core(f)), TcfFault::kUnknownVersion) << version;
  }
  // The TCF v1.1 specification's example consent string.
  EXPECT_EQ(fault_of("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"), TcfFault::kVersion1);
}

TEST(TcfConsent, TruncationAtEveryByteBoundaryThatCutsAFieldIsRefused) {
  const BitWriter bits = core_bits(with_every_section());
  const size_t field_bits = bits.size();
  BitWriter padded = bits;
  padded.pad_to(8);
  for (size_t bytes = 0; bytes <= padded.size() / 8; ++bytes) {
    const std::string text = padded.base64url(bytes * 8);
    // The decoder sees whole digits: the zero bits of the last one count as data.
    const bool holds_every_field = text.size() * 6 >= field_bits;
    const TcfFault expected = bytes == 0              ? TcfFault::kEmptySegment
                              : holds_every_field    ? TcfFault::kNone
                                                     : TcfFault::kCoreTruncated;
    EXPECT_EQ(fault_of(text), expected) << bytes << " bytes of " << padded.size() / 8;
    if (bytes * 8 + 6 <= field_bits) {
      EXPECT_NE(fault_of(text), TcfFault::kNone) << bytes;
    }
  }
}

TEST(TcfConsent, TruncationAtEveryCharacterThatCutsAFieldIsRefused) {
  const BitWriter bits = core_bits(with_every_section());
  const std::string full = encode_core(with_every_section());
  for (size_t length = 1; length < full.size(); ++length) {
    const std::string_view text = std::string_view(full).substr(0, length);
    const TcfFault expected =
        length * 6 >= bits.size() ? TcfFault::kNone : TcfFault::kCoreTruncated;
    EXPECT_EQ(fault_of(text), expected) << length;
  }
}

// Counts announce more than the string holds: refused, whatever the count (and quickly).
TEST(TcfConsent, SectionLongerThanTheStringIsRefused) {
  constexpr size_t kFixedBits = 213;
  constexpr size_t kSectionHeadBits = 16 + 1;  // MaxVendorId, IsRangeEncoding
  CoreFields wide;
  wide.vendor_consent.max_vendor_id = 65535;  // a 65535-bit field; 100 bits of it present
  EXPECT_EQ(fault_of(core_bits(wide).base64url(kFixedBits + kSectionHeadBits + 100)),
            TcfFault::kCoreTruncated);

  CoreFields ranges;  // 4095 range entries announced, 10 present
  ranges.vendor_consent = range_encoded(9, std::vector<VendorRange>(4095, VendorRange{9, 9}));
  EXPECT_EQ(fault_of(core_bits(ranges).base64url(kFixedBits + kSectionHeadBits + 12 + 10 * 17)),
            TcfFault::kCoreTruncated);

  CoreFields restricted;  // 4095 publisher restrictions announced, one present
  restricted.restrictions.assign(4095, PublisherRestriction{});
  EXPECT_EQ(fault_of(core_bits(restricted).base64url(kFixedBits + 2 * kSectionHeadBits + 12 + 20)),
            TcfFault::kCoreTruncated);
}

TEST(TcfConsent, ConsentLanguageOutsideAToZIsRefused) {
  for (uint64_t letter : {26, 40, 63}) {
    CoreFields f;
    f.language[0] = letter;
    EXPECT_EQ(fault_of(encode_core(f)), TcfFault::kLanguageNotLetters) << letter;
    f = CoreFields{};
    f.language[1] = letter;
    EXPECT_EQ(fault_of(encode_core(f)), TcfFault::kLanguageNotLetters) << letter;
  }
}

TEST(TcfConsent, SetBitAfterTheCoreIsRefused) {
  const BitWriter bits = core_bits(with_every_section());
  for (size_t at : {0, 1, 5, 17}) {
    BitWriter extra = bits;
    extra.put(0, static_cast<int>(at));
    extra.put(1, 1);
    EXPECT_EQ(fault_of(extra.base64url()), TcfFault::kTrailingBits) << at;
  }
}

TEST(TcfConsent, CharacterOutsideBase64urlIsRefused) {
  const std::string core = encode_core(CoreFields{});
  const std::vector<std::string> bad_characters = {"+", "/", " ", "\t", "\n", "*", "\xC3\xA9",
                                                   std::string(1, '\0')};
  for (const std::string& bad : bad_characters) {
    EXPECT_EQ(fault_of(core + bad), TcfFault::kNotBase64url) << core + bad;
    EXPECT_EQ(fault_of(bad + core), TcfFault::kNotBase64url) << bad + core;
    EXPECT_EQ(fault_of(core.substr(0, 10) + bad + core.substr(10)), TcfFault::kNotBase64url);
  }
}

TEST(TcfConsent, PaddingIsRefused) {
  const std::string core = encode_core(CoreFields{});
  EXPECT_EQ(fault_of(core + "="), TcfFault::kPadding);
  EXPECT_EQ(fault_of(core + "=="), TcfFault::kPadding);
  EXPECT_EQ(fault_of(core + "=." + encode_segment(3)), TcfFault::kPadding);
  EXPECT_EQ(fault_of(core + "." + encode_segment(3) + "="), TcfFault::kPadding);
}

TEST(TcfConsent, EmptySegmentIsRefused) {
  const std::string core = encode_core(CoreFields{});
  const std::string publisher = encode_segment(3);
  for (const std::string& text : {std::string(), std::string("."), core + ".", "." + core,
                                  core + ".." + publisher, core + "." + publisher + "."}) {
    EXPECT_EQ(fault_of(text), TcfFault::kEmptySegment) << text;
  }
}

TEST(TcfConsent, UnknownSegmentTypeIsRefused) {
  const std::string core = encode_core(CoreFields{});
  for (uint64_t type : {0, 4, 5, 6, 7}) {
    EXPECT_EQ(fault_of(core + "." + encode_segment(type)), TcfFault::kUnknownSegmentType)
        << type;
    EXPECT_EQ(fault_of(core + "." + encode_segment(3) + "." + encode_segment(type)),
              TcfFault::kUnknownSegmentType)
        << type;
  }
  // A second core string after the first is a segment of type 0.
  EXPECT_EQ(fault_of(core + "." + core), TcfFault::kUnknownSegmentType);
}

// ---- Published strings ------------------------------------------------------------------

// From LiveRamp/iabconsent, v2_parsed_consent_fixture_test.go (made with the iabtcf.com
// encoder), which lists each string's decoded fields.
TEST(TcfConsent, LiveRampFixtureWithOobSegments) {
  // CMP 123 version 1, EN, vendor list 15; purposes 1, 3, 6, 7, 8, 10 consented; range
  // encoded vendors; disclosed vendors and allowed vendors segments.
  const TcfConsent consent = decoded(
      "COvzTO5OvzTO5B7ABCENAPCYAKdAADkAAIqIFhwBAAGAAXAFGAsMAhYAgAMAAegBYAEKAAA."
      "IFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAACEAAAAAgAQBAAAAAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAA"
      "AAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUw.QE5QAwCvgHyATkA");
  EXPECT_TRUE(consent.purpose1_consented);
  EXPECT_EQ(consent.purposes_consent, purposes({1, 3, 6, 7, 8, 10}));
  EXPECT_EQ(consent.cmp_id, 123);
  EXPECT_EQ(consent.cmp_version, 1);
  EXPECT_EQ(consent.vendor_list_version, 15);
  EXPECT_EQ(std::string(consent.consent_language.data(), 2), "EN");
}

TEST(TcfConsent, LiveRampFixtureWithPublisherRestrictions) {
  // CMP 81, purposes 1, 3, 4, 7 consented; three publisher restrictions.
  const TcfConsent consent =
      decoded("COvzTO5OvzTO5BRAAAENAPCoALIAADgAAAAAAewAwABAAlAB6ABBFADBQAQA9hAAAcAA");
  EXPECT_TRUE(consent.purpose1_consented);
  EXPECT_EQ(consent.purposes_consent, purposes({1, 3, 4, 7}));
  EXPECT_EQ(consent.cmp_id, 81);
}

TEST(TcfConsent, LiveRampFixtureWithoutAnyPurposeConsent) {
  // CMP 89 version 5; no purpose consented; 720-bit vendor bit fields.
  const TcfConsent consent = decoded(
      "COvzTO5OvzTO5BZAFMENAPCgAAAAAAAAAAwIFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAACEAAAAAgAQBAAA"
      "AAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAAAAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUwLQIoghAAQhhARggACAIAAAAcQ"
      "AAEAQAAAAgAQBAIAAEIAAAABAAgCAAAAAAAMCABAAAAAAAAKAAIEAABAAAgAiAIgAAAAASAAQABAAAAwgIAAAhMBACFu"
      "yAxmpgAA");
  EXPECT_FALSE(consent.purpose1_consented);
  EXPECT_EQ(consent.purposes_consent, 0u);
  EXPECT_EQ(consent.cmp_id, 89);
  EXPECT_EQ(consent.cmp_version, 5);
}

// The service-specific example of the IAB's TC string specification ("Consent string and
// vendor list formats v2"), decoded in the README of the CPAN module GDPR::IAB::TCFv2: CMP 21
// version 7, EN, vendor list 23, purposes 1, 3, 9 and 10 consented; a publisher TC segment.
TEST(TcfConsent, IabSpecificationServiceSpecificExample) {
  const TcfConsent consent = decoded(
      "CLcVDxRMWfGmWAVAHCENAXCkAKDAADnAABRgA5mdfCKZuYJez-NQm0TBMYA4oCAAGQYIAAAAAAEAIAEgAA."
      "argAC0gAAAAAAAAAAAA");
  EXPECT_TRUE(consent.purpose1_consented);
  EXPECT_EQ(consent.purposes_consent, purposes({1, 3, 9, 10}));
  EXPECT_EQ(consent.cmp_id, 21);
  EXPECT_EQ(consent.cmp_version, 7);
  EXPECT_EQ(consent.vendor_list_version, 23);
  EXPECT_EQ(std::string(consent.consent_language.data(), 2), "EN");
}

// From prebid/go-gdpr, vendorconsent/tcf2: a string it accepts whose encoder padded the core
// with 8 zero bits (metadata_test.go), and two it refuses because the legitimate interest
// section is missing (consent_test.go).
TEST(TcfConsent, PrebidFixtures) {
  EXPECT_EQ(fault_of("COvcSpYOvcSpYC9AAAENAPCAAAAAAAAAAAAACvwDQABAAIAAYABIAC4AJQAagA9ACEAPgAj"
                     "IBJoCvAK-AAAAAA"),
            TcfFault::kNone);
  EXPECT_EQ(fault_of("COvcSpYOvcSpYC9AAAENAPCAAAAAAAAAAAAAAFAAAAA"), TcfFault::kCoreTruncated);
  EXPECT_EQ(fault_of("COvcSpYOvcSpYC9AAAENAPCAAAAAAAAAAAAAAFQBgAAgABAACAAEAAQAAgAA"),
            TcfFault::kCoreTruncated);
}

}  // namespace
}  // namespace decision::request
