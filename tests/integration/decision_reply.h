#pragma once
// What a reply of POST /v1/decision says, read from its JSON (simdjson), so that tests
// compare ids, warnings and errors rather than text: key order and spacing stay free.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace integration {

struct ServedCreative {
  std::string ad_id;  // metadata.adId, "ad_<id>"
  std::string creative_id;
  std::string placement_id;
  std::string template_id;
  std::string priority;
  std::string advertiser_id;                                 // advertiser.id
  std::vector<std::pair<std::string, std::string>> contents;  // key, value
};

struct PlacementDecision {
  std::string placement;
  std::vector<ServedCreative> creatives;
};

// A warning or error item: its code and the string members of its details.
struct ReplyItem {
  int64_t code = 0;
  std::map<std::string, std::string> details;
};

struct DecisionReply {
  std::vector<PlacementDecision> data;
  bool warnings_null = true;
  std::vector<ReplyItem> warnings;

  // Every ad id of the reply, placement by placement, in order.
  std::vector<std::string> ad_ids() const;
  std::vector<int64_t> warning_codes() const;
};

// The success envelope {"success":true,"data":[...],"errors":null,"warnings":null|[...]}
// read into `out`; a failure says what is wrong with the body.
::testing::AssertionResult ReadDecision(const std::string& body, DecisionReply& out);

// The error envelope of docs/errors.md ({"success":false,"data":null,"errors":[...],
// "warnings":null}, every error with an integer code, a non-empty message and an object
// as details) listing exactly these (code, details.field) pairs, in any order. A field
// left empty expects an error without details.field.
using ExpectedErrors = std::vector<std::pair<int64_t, std::string>>;
::testing::AssertionResult IsErrorEnvelopeListing(const std::string& body, ExpectedErrors expected);

// The error envelope with at least one error, whatever the codes; they go to `codes`.
::testing::AssertionResult IsAnyErrorEnvelope(const std::string& body, std::vector<int64_t>* codes = nullptr);

}  // namespace integration
