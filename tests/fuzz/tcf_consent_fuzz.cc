// Fuzz driver for the TCF v2 consent decoder (decision/request/tcf_consent.h): the input is
// the user.consent.gdpr string of a decision request. Invariants, any break aborts:
//   - a result exactly when the fault is kNone;
//   - a decoded string's language is two letters A-Z, purpose1_consented is purpose 1 of
//     PurposesConsent, and purposes outside 1..24 are never consented;
//   - decoding is a function of the text: twice gives the same verdict;
//   - a later segment of a known type (".IA": disclosed vendors) changes nothing in the core.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "decision/request/tcf_consent.h"

namespace {

namespace request = decision::request;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "tcf_consent_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

bool same(const std::optional<request::TcfConsent>& a, const std::optional<request::TcfConsent>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->cmp_id == b->cmp_id && a->cmp_version == b->cmp_version &&
         a->vendor_list_version == b->vendor_list_version && a->consent_language == b->consent_language &&
         a->purposes_consent == b->purposes_consent && a->purpose1_consented == b->purpose1_consented;
}

std::optional<request::TcfConsent> decode_checked(std::string_view text, request::TcfFault& fault) {
  std::optional<request::TcfConsent> consent = request::decode_tcf_consent(text, fault);
  check(consent.has_value() == (fault == request::TcfFault::kNone), "a result exactly when the fault is kNone");
  if (consent) {
    for (const char c : consent->consent_language) check(c >= 'A' && c <= 'Z', "the language is two letters A-Z");
    check(consent->purposes_consent < (1u << 24), "PurposesConsent has 24 bits");
    check(consent->purpose1_consented == consent->purpose_consented(1), "purpose1_consented is purpose 1");
    check(!consent->purpose_consented(0) && !consent->purpose_consented(25), "purposes are 1..24");
  }
  return consent;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  request::TcfFault fault = request::TcfFault::kNone;
  const std::optional<request::TcfConsent> consent = decode_checked(text, fault);
  request::TcfFault again_fault = request::TcfFault::kNone;
  check(same(decode_checked(text, again_fault), consent) && again_fault == fault, "decoding twice agrees");
  if (consent) {
    const std::string extended = std::string(text) + ".IA";
    request::TcfFault extended_fault = request::TcfFault::kNone;
    check(same(decode_checked(extended, extended_fault), consent),
          "a disclosed-vendors segment changes nothing in the core");
  }
  return 0;
}
