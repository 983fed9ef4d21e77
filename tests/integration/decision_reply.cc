#include "tests/integration/decision_reply.h"

#include <algorithm>

#include "tests/integration/json_body.h"

namespace integration {

namespace {

using simdjson::dom::element;

std::map<std::string, std::string> string_details(element item) {
  std::map<std::string, std::string> details;
  simdjson::dom::object object;
  if (item["details"].get(object) != simdjson::SUCCESS) return details;
  for (const auto field : object) {
    std::string_view value;
    if (field.value.get(value) == simdjson::SUCCESS) details.emplace(std::string(field.key), std::string(value));
  }
  return details;
}

// code (integer), message (non-empty string), details (object).
::testing::AssertionResult read_item(element item, ReplyItem& out) {
  const std::optional<int64_t> code = int_member(item, "code");
  if (!code) return ::testing::AssertionFailure() << "code is not an integer";
  const std::optional<std::string> message = string_member(item, "message");
  if (!message || message->empty()) return ::testing::AssertionFailure() << "message is not a non-empty string";
  if (!item["details"].is_object()) return ::testing::AssertionFailure() << "details is not an object";
  out.code = *code;
  out.details = string_details(item);
  return ::testing::AssertionSuccess();
}

// Members that are missing or of another type are left empty: the shape tests judge them.
ServedCreative read_creative(element creative) {
  ServedCreative out;
  element metadata;
  if (creative["metadata"].get(metadata) == simdjson::SUCCESS) {
    out.ad_id = string_member(metadata, "adId").value_or("");
    out.creative_id = string_member(metadata, "creativeId").value_or("");
    out.placement_id = string_member(metadata, "placementId").value_or("");
    out.template_id = string_member(metadata, "templateId").value_or("");
    out.priority = string_member(metadata, "priority").value_or("");
  }
  element advertiser;
  if (creative["advertiser"].get(advertiser) == simdjson::SUCCESS) {
    out.advertiser_id = string_member(advertiser, "id").value_or("");
  }
  for (element item : array_member(creative, "contents")) {
    out.contents.emplace_back(string_member(item, "key").value_or(""), string_member(item, "value").value_or(""));
  }
  return out;
}

// The envelope of an error reply, its items read into `items`.
::testing::AssertionResult read_error_envelope(const std::string& body, std::vector<ReplyItem>& items) {
  const JsonBody json(body);
  if (!json.ok() || !json.root().is_object()) return ::testing::AssertionFailure() << "not a JSON object: " << body;
  const element root = json.root();
  bool success = true;
  if (root["success"].get(success) != simdjson::SUCCESS || success) {
    return ::testing::AssertionFailure() << "success is not false: " << body;
  }
  if (!root["data"].is_null()) return ::testing::AssertionFailure() << "data is not null: " << body;
  if (!root["warnings"].is_null()) return ::testing::AssertionFailure() << "warnings is not null: " << body;
  if (!root["errors"].is_array()) return ::testing::AssertionFailure() << "errors is not an array: " << body;
  for (element error : array_member(root, "errors")) {
    ReplyItem item;
    const ::testing::AssertionResult read = read_item(error, item);
    if (!read) return ::testing::AssertionFailure() << "an error item: " << read.message() << ": " << body;
    items.push_back(std::move(item));
  }
  if (items.empty()) return ::testing::AssertionFailure() << "errors is empty: " << body;
  return ::testing::AssertionSuccess();
}

}  // namespace

std::vector<std::string> DecisionReply::ad_ids() const {
  std::vector<std::string> ids;
  for (const PlacementDecision& placement : data) {
    for (const ServedCreative& creative : placement.creatives) ids.push_back(creative.ad_id);
  }
  return ids;
}

std::vector<int64_t> DecisionReply::warning_codes() const {
  std::vector<int64_t> codes;
  for (const ReplyItem& warning : warnings) codes.push_back(warning.code);
  return codes;
}

::testing::AssertionResult ReadDecision(const std::string& body, DecisionReply& out) {
  out = DecisionReply{};
  const JsonBody json(body);
  if (!json.ok() || !json.root().is_object()) return ::testing::AssertionFailure() << "not a JSON object: " << body;
  const element root = json.root();
  bool success = false;
  if (root["success"].get(success) != simdjson::SUCCESS || !success) {
    return ::testing::AssertionFailure() << "success is not true: " << body;
  }
  if (!root["errors"].is_null()) return ::testing::AssertionFailure() << "errors is not null: " << body;
  if (!root["data"].is_array()) return ::testing::AssertionFailure() << "data is not an array: " << body;
  for (element placement : array_member(root, "data")) {
    PlacementDecision decision;
    const std::optional<std::string> key = string_member(placement, "placement");
    if (!key || !placement["creatives"].is_array()) {
      return ::testing::AssertionFailure() << "a data item without placement and creatives: " << body;
    }
    decision.placement = *key;
    for (element creative : array_member(placement, "creatives")) decision.creatives.push_back(read_creative(creative));
    out.data.push_back(std::move(decision));
  }
  out.warnings_null = root["warnings"].is_null();
  if (!out.warnings_null) {
    if (!root["warnings"].is_array()) return ::testing::AssertionFailure() << "warnings is neither null nor an array";
    for (element warning : array_member(root, "warnings")) {
      ReplyItem item;
      const ::testing::AssertionResult read = read_item(warning, item);
      if (!read) return ::testing::AssertionFailure() << "a warning: " << read.message() << ": " << body;
      out.warnings.push_back(std::move(item));
    }
    if (out.warnings.empty()) return ::testing::AssertionFailure() << "warnings is [] rather than null: " << body;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult IsErrorEnvelopeListing(const std::string& body, ExpectedErrors expected) {
  std::vector<ReplyItem> items;
  const ::testing::AssertionResult envelope = read_error_envelope(body, items);
  if (!envelope) return envelope;
  ExpectedErrors actual;
  for (const ReplyItem& item : items) {
    const auto field = item.details.find("field");
    actual.emplace_back(item.code, field == item.details.end() ? "" : field->second);
  }
  std::sort(actual.begin(), actual.end());
  std::sort(expected.begin(), expected.end());
  if (actual == expected) return ::testing::AssertionSuccess();
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "errors listed (code, field):";
  for (const auto& [code, field] : actual) failure << " (" << code << ", " << field << ")";
  failure << "; expected:";
  for (const auto& [code, field] : expected) failure << " (" << code << ", " << field << ")";
  return failure << "; body: " << body;
}

::testing::AssertionResult IsAnyErrorEnvelope(const std::string& body, std::vector<int64_t>* codes) {
  std::vector<ReplyItem> items;
  const ::testing::AssertionResult envelope = read_error_envelope(body, items);
  if (!envelope) return envelope;
  if (codes != nullptr) {
    codes->clear();
    for (const ReplyItem& item : items) codes->push_back(item.code);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace integration
