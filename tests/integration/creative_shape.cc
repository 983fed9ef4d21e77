#include "tests/integration/creative_shape.h"

#include <optional>
#include <regex>
#include <vector>

#include "tests/integration/json_body.h"

namespace integration {

namespace {

using simdjson::dom::element;

bool matches(const std::optional<std::string>& text, const char* pattern) {
  return text && std::regex_match(*text, std::regex(pattern));
}

bool is_http_url(const std::optional<std::string>& text) { return matches(text, "https?://[^ ]+"); }

// {base_url}/v1/tracking?t=<unpadded base64url token> (docs/tokens.md).
bool is_tracking_url(const std::optional<std::string>& text, const std::string& prefix) {
  if (!text || text->rfind(prefix, 0) != 0) return false;
  return std::regex_match(text->substr(prefix.size()), std::regex("[A-Za-z0-9_-]{16,}"));
}

// A tracking array: items {key, value} with a tracking URL as value; the keys go to `keys`.
::testing::AssertionResult IsTrackingList(std::optional<element> list, const std::string& prefix,
                                          std::vector<std::string>& keys, std::set<std::string>& urls) {
  if (!list || !list->is_array()) return ::testing::AssertionFailure() << "missing or not an array";
  for (element item : array_items(*list)) {
    const std::optional<std::string> key = string_member(item, "key");
    const std::optional<std::string> value = string_member(item, "value");
    if (!key || key->empty()) return ::testing::AssertionFailure() << "item without a key: " << item;
    if (!is_tracking_url(value, prefix)) return ::testing::AssertionFailure() << "value is not a tracking URL: " << item;
    if (!urls.insert(*value).second) return ::testing::AssertionFailure() << "tracking URL issued twice: " << *value;
    keys.push_back(*key);
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasTrackingShape(std::optional<element> tracking, const std::string& prefix,
                                            ShapeSeen& seen) {
  if (!tracking || !tracking->is_object()) return ::testing::AssertionFailure() << "tracking is not an object";
  std::vector<std::string> keys;
  ::testing::AssertionResult list = IsTrackingList(member(*tracking, "impressions"), prefix, keys, seen.tracking_urls);
  if (!list) return ::testing::AssertionFailure() << "tracking.impressions: " << list.message();
  if (keys != std::vector<std::string>{"impression"}) return ::testing::AssertionFailure() << "impressions: " << *tracking;
  keys.clear();
  list = IsTrackingList(member(*tracking, "clicks"), prefix, keys, seen.tracking_urls);
  if (!list) return ::testing::AssertionFailure() << "tracking.clicks: " << list.message();
  if (keys != std::vector<std::string>{"click"}) return ::testing::AssertionFailure() << "clicks: " << *tracking;
  const std::optional<element> custom = member(*tracking, "custom");
  if (!custom) return ::testing::AssertionFailure() << "tracking.custom is missing";
  if (custom->is_null()) return ::testing::AssertionSuccess();
  keys.clear();
  list = IsTrackingList(custom, prefix, keys, seen.tracking_urls);
  if (!list) return ::testing::AssertionFailure() << "tracking.custom: " << list.message();
  if (keys.empty()) return ::testing::AssertionFailure() << "tracking.custom is [] rather than null";
  ++seen.with_custom_events;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasVerificationShape(std::optional<element> resources, ShapeSeen& seen) {
  if (!resources || !resources->is_array()) {
    return ::testing::AssertionFailure() << "verificationScriptResources is not an array";
  }
  for (element item : array_items(*resources)) {
    const std::optional<std::string> vendor = string_member(item, "vendorKey");
    const std::optional<std::string> url = string_member(item, "url");
    const std::optional<std::string> parameters = string_member(item, "parameters");
    if (!vendor || vendor->empty()) return ::testing::AssertionFailure() << "no vendorKey: " << item;
    // Both spellings are written (docs/decision-response.md).
    if (!is_http_url(url) || string_member(item, "scriptUrl") != url) {
      return ::testing::AssertionFailure() << "url and scriptUrl are not one URL: " << item;
    }
    if (string_member(item, "verificationParameters") != parameters) {
      return ::testing::AssertionFailure() << "parameters and verificationParameters differ: " << item;
    }
  }
  if (!array_items(*resources).empty()) ++seen.with_verification;
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult HasCreativeShape(element creative, const ShapeRules& rules, ShapeSeen& seen) {
  ++seen.creatives;
  const std::vector<element> contents = array_member(creative, "contents");
  if (contents.empty()) return ::testing::AssertionFailure() << "contents is not a non-empty array";
  for (element item : contents) {
    if (!string_member(item, "key") || !string_member(item, "value") || !string_member(item, "type")) {
      return ::testing::AssertionFailure() << "a content item is not {key, value, type} strings: " << item;
    }
  }
  const std::optional<element> advertiser = member(creative, "advertiser");
  if (!advertiser || !matches(string_member(*advertiser, "id"), "advertiser_[1-9][0-9]*") ||
      !string_member(*advertiser, "name") || !string_member(*advertiser, "legalName") ||
      !is_http_url(string_member(*advertiser, "logoUrl"))) {
    return ::testing::AssertionFailure() << "advertiser is not {id, name, legalName, logoUrl}: " << creative;
  }
  if (rules.template_member) {
    const std::optional<element> template_object = member(creative, "template");
    if (!template_object || !string_member(*template_object, "key") || !string_member(*template_object, "style")) {
      return ::testing::AssertionFailure() << "template is not {key, style}: " << creative;
    }
  } else if (has_member(creative, "template")) {
    return ::testing::AssertionFailure() << "template in a version without it: " << creative;
  }
  ::testing::AssertionResult tracking = HasTrackingShape(member(creative, "tracking"), rules.tracking_url_prefix, seen);
  if (!tracking) return tracking << ": " << creative;
  const std::optional<element> metadata = member(creative, "metadata");
  if (!metadata || !matches(string_member(*metadata, "adId"), "ad_[1-9][0-9]*") ||
      !matches(string_member(*metadata, "creativeId"), "creative_[1-9][0-9]*") ||
      !matches(string_member(*metadata, "placementId"), "placement_[1-9][0-9]*") ||
      !matches(string_member(*metadata, "templateId"), "template_[1-9][0-9]*") ||
      !matches(string_member(*metadata, "priority"), ".+") || !matches(string_member(*metadata, "style"), ".+")) {
    return ::testing::AssertionFailure() << "metadata is not {adId, creativeId, placementId, templateId, "
                                            "priority, style}: " << creative;
  }
  if (rules.verification_member) {
    ::testing::AssertionResult verification =
        HasVerificationShape(member(creative, "verificationScriptResources"), seen);
    if (!verification) return verification << ": " << creative;
  } else if (has_member(creative, "verificationScriptResources")) {
    return ::testing::AssertionFailure() << "verificationScriptResources in a version without it: " << creative;
  }
  // Spec video rule 2: native ads carry neither.
  if (has_member(creative, "delivery") || has_member(creative, "vast")) {
    return ::testing::AssertionFailure() << "delivery or vast on a native ad: " << creative;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace integration
