#pragma once
// user.consent.gdpr as a string: an IAB TCF v2 "TC String" (IAB Tech Lab, "Consent string
// and vendor list formats v2"), decoded far enough to know whether purpose 1 (store and/or
// access information on a device) is consented, which is what docs/targeting.md ("GDPR") asks.
//
// A TC string is segments joined by '.', each base64url (A-Z a-z 0-9 - _, no '=' padding)
// holding big-endian bit fields, 6 bits a character. A string is valid when:
//   - no segment is empty, every character is of the base64url alphabet;
//   - the first (core) segment has Version (6 bits) = 2;
//   - the core segment holds every field of the core string without running out of bits:
//     Created 36, LastUpdated 36, CmpId 12, CmpVersion 12, ConsentScreen 6,
//     ConsentLanguage 12, VendorListVersion 12, TcfPolicyVersion 6, IsServiceSpecific 1,
//     UseNonStandardTexts (was UseNonStandardStacks) 1, SpecialFeatureOptIns 12,
//     PurposesConsent 24, PurposesLITransparency 24, PurposeOneTreatment 1, PublisherCC 12
//     (213 bits with Version); then the vendor consent and the vendor legitimate interest
//     sections, each MaxVendorId 16, IsRangeEncoding 1, then a bit field of MaxVendorId
//     bits, or NumEntries 12 and that many entries of IsARange 1, StartVendorId 16
//     [, EndVendorId 16 when IsARange]; then NumPubRestrictions 12 and that many entries
//     of PurposeId 6, RestrictionType 2, NumEntries 12 and range entries as above;
//   - ConsentLanguage is two letters, each 6 bits from 0 (A) to 25 (Z);
//   - the bits after the last field of the core are zero (encoders pad to a whole number of
//     bytes, some to a multiple of 24 bits; published strings carry up to 8 such bits);
//   - every later segment's first 3 bits (SegmentType) are 1 (disclosed vendors),
//     2 (allowed vendors) or 3 (publisher TC). Their content is not decoded.
// Values the format leaves to policy are not judged: PublisherCC, restriction types, vendor
// ids of ranges, timestamps.
//
// Decoding reads the string in place: no allocation, one pass, work bounded by its length.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace decision::request {

// Why a string is not a TC string, the first fault found (in the order of the list above).
enum class TcfFault : uint8_t {
  kNone,
  kEmptySegment,        // "" or an empty segment ("..", leading or trailing '.')
  kPadding,             // a '=' (base64 padding)
  kNotBase64url,        // any other character outside the alphabet
  kVersion1,            // a TCF v1 consent string
  kUnknownVersion,      // a version other than 1 or 2
  kCoreTruncated,       // the core segment ends inside a field
  kLanguageNotLetters,  // ConsentLanguage outside A-Z
  kTrailingBits,        // a set bit after the last field of the core
  kUnknownSegmentType,  // a later segment's type is not 1, 2 or 3
};

struct TcfConsent {
  uint16_t cmp_id = 0;
  uint16_t cmp_version = 0;
  uint16_t vendor_list_version = 0;
  std::array<char, 2> consent_language{};  // upper case, as "EN"
  // PurposesConsent as read: purpose 1 is the most significant of its 24 bits.
  uint32_t purposes_consent = 0;
  // Purpose 1, store and/or access information on a device: the consent the server needs.
  bool purpose1_consented = false;

  bool purpose_consented(int purpose) const {
    return purpose >= 1 && purpose <= 24 && ((purposes_consent >> (24 - purpose)) & 1u) != 0;
  }
};

// The decoded core of `text`, or nullopt with the reason in `fault` (kNone on success).
std::optional<TcfConsent> decode_tcf_consent(std::string_view text, TcfFault& fault);

}  // namespace decision::request
