#pragma once
// The shape of one creative in a decision reply (docs/decision-response.md), judged member by
// member on the parsed JSON: types, id forms, tracking URLs under the --base-url, and the
// members that only some versions have.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <set>
#include <string>

namespace integration {

struct ShapeRules {
  std::string tracking_url_prefix;   // "{base_url}/v1/tracking?t="
  bool template_member = false;      // 2025-11-01 and later
  bool verification_member = false;  // 2025-11-01 and later
};

// What the creatives judged so far showed, so a test knows which branches it exercised.
struct ShapeSeen {
  int creatives = 0;
  int with_custom_events = 0;
  int with_verification = 0;
  std::set<std::string> tracking_urls;  // every URL, each issued once
};

::testing::AssertionResult HasCreativeShape(simdjson::dom::element creative, const ShapeRules& rules,
                                            ShapeSeen& seen);

}  // namespace integration
