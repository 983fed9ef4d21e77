// The tracking URLs a player fires from every served document (read_vast.mjs
// --replace-macros: ERRORCODE=405, REASON=2, the tracker's own macros filled), called on the
// running server as the player would (GET, redirects not followed): each answers 204 (the
// ClickTracking and CompanionClickTracking tokens carry no destination), and the event log
// holds one matching line per call.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/conformance/vast/generated_catalog.h"
#include "tests/conformance/vast/player_output.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/event_log_lines.h"

namespace conformance::vast {
namespace {

using integration::array_member;
using integration::string_member;
using simdjson::dom::element;

std::string snake_case_milestone(std::string_view vast_event) {
  if (vast_event == "firstQuartile") return "first_quartile";
  if (vast_event == "thirdQuartile") return "third_quartile";
  return std::string(vast_event);
}

// One event log line, as much of it as a call decides.
std::string event_key(std::string_view kind, const std::optional<std::string>& event, std::optional<int64_t> code,
                      std::optional<int64_t> reason, bool duplicate) {
  std::string key(kind);
  if (event) key += " event=" + *event;
  if (code) key += " code=" + std::to_string(*code);
  if (reason) key += " reason=" + std::to_string(*reason);
  if (duplicate) key += " duplicate";
  return key;
}

// What calling the URL resolved at `where` must log for the ad.
std::string expected_key(const std::string& where, const VideoAdSpec& ad, size_t& verification) {
  if (where == "impression") return event_key("impression", std::nullopt, std::nullopt, std::nullopt, false);
  if (where == "error") return event_key("error", std::nullopt, 405, std::nullopt, false);
  if (where == "clickTracking" || where == "companionClickTracking") {
    return event_key("click", std::nullopt, std::nullopt, std::nullopt, false);
  }
  if (where == "verification:verificationNotExecuted") {
    // The vendor travels in the token, not through XML: the catalog's bytes exactly.
    const std::string vendor = verification < ad.verifications.size() ? ad.verifications[verification].vendor_key : "?";
    ++verification;
    return event_key("verification_not_executed", vendor, std::nullopt, 2, false);
  }
  if (where.starts_with("tracking:")) return event_key("video", snake_case_milestone(where.substr(9)), std::nullopt, std::nullopt, false);
  return "unexpected where " + where;
}

std::map<std::string, size_t> expected_wheres(const VideoAdSpec& ad) {
  std::map<std::string, size_t> wheres = {{"impression", 1},       {"error", 1},           {"tracking:start", 1},
                                          {"tracking:firstQuartile", 1}, {"tracking:midpoint", 1}, {"tracking:thirdQuartile", 1},
                                          {"tracking:complete", 1}, {"clickTracking", 1}};
  if (ad.skip_offset) wheres["tracking:skip"] = 1;
  if (!ad.verifications.empty()) wheres["verification:verificationNotExecuted"] = ad.verifications.size();
  const size_t companion_clicks = static_cast<size_t>(
      std::count_if(ad.companions.begin(), ad.companions.end(), [](const CompanionSpec& c) { return !c.click_url.empty(); }));
  if (companion_clicks > 0) wheres["companionClickTracking"] = companion_clicks;
  return wheres;
}

struct LoggedCall {
  std::string request;  // 32 hex digits
  uint64_t ad = 0;
  uint64_t creative = 0;
  uint64_t placement = 0;
  std::vector<std::string> keys;
};

TEST_F(GeneratedCatalogTest, EveryTrackingUrlAPlayerFiresIsAcceptedAndLogged) {
  ASSERT_EQ(documents_.size(), kAdCount * 2 / 3);
  const std::vector<PlayerOutput> outputs = read_with_player(document_files_, true);
  integration::CurlSession player;
  std::vector<LoggedCall> expected;
  size_t calls = 0;
  for (size_t i = 0; i < documents_.size(); ++i) {
    const VideoAdSpec& ad = documents_[i].ad();
    SCOPED_TRACE(describe(ad));
    ASSERT_EQ(outputs[i].exit_code, 0) << outputs[i].stderr_text;
    ASSERT_TRUE(outputs[i].json.ok()) << outputs[i].json.error();
    const element root = outputs[i].json.root();
    EXPECT_EQ(string_items(root, "trackerErrors"), std::vector<std::string>{});
    const std::vector<element> ads = array_member(root, "ads");
    ASSERT_EQ(ads.size(), 1u);
    const std::string serving_id = string_member(ads[0], "adServingId").value_or("");
    LoggedCall call{serving_id.substr(0, serving_id.find('-')), ad.id, ad.creative_id, ad.placement_id, {}};
    std::map<std::string, size_t> wheres;
    size_t verification = 0;
    for (element resolved : array_member(root, "resolvedUrls")) {
      const std::string where = string_member(resolved, "where").value_or("");
      const std::optional<std::string> url = string_member(resolved, "url");
      SCOPED_TRACE(where);
      ++wheres[where];
      ASSERT_TRUE(url.has_value()) << "the player fired nothing";
      if (where == "error") {
        EXPECT_TRUE(url->ends_with("&code=405")) << *url;
      }
      if (where.starts_with("verification:")) {
        EXPECT_TRUE(url->ends_with("&reason=2")) << *url;
      }
      const integration::CurlReply reply = player.get(*url);
      ASSERT_TRUE(reply.ok) << reply.error;
      EXPECT_EQ(reply.status, 204) << *url << "\n" << reply.body;
      call.keys.push_back(expected_key(where, ad, verification));
      ++calls;
    }
    EXPECT_EQ(wheres, expected_wheres(ad));
    std::sort(call.keys.begin(), call.keys.end());
    expected.push_back(std::move(call));
  }

  auto tracking_lines = [](const std::vector<integration::EventLine>& lines) {
    return static_cast<size_t>(std::count_if(lines.begin(), lines.end(),
                                             [](const integration::EventLine& l) { return l.kind != "decision"; }));
  };
  const std::vector<integration::EventLine> lines = integration::wait_for_event_lines(
      server_->state_dir(), [&](const auto& read) { return tracking_lines(read) >= calls; });
  EXPECT_EQ(tracking_lines(lines), calls);
  std::map<std::pair<std::string, uint64_t>, std::vector<std::string>> logged;
  for (const integration::EventLine& line : lines) {
    if (line.kind == "decision") continue;
    const integration::JsonBody json(line.text);
    const std::optional<int64_t> reason = integration::int_member(json.root(), "reason");
    const std::string key = event_key(line.kind, line.event, line.code, reason, line.duplicate.value_or(true));
    const auto it = std::find_if(expected.begin(), expected.end(), [&](const LoggedCall& c) {
      return c.request == line.request && c.ad == line.ad;
    });
    if (it != expected.end()) {
      EXPECT_EQ(line.creative, it->creative) << line.text;
      EXPECT_EQ(line.placement, it->placement) << line.text;
    }
    logged[{line.request.value_or(""), line.ad.value_or(0)}].push_back(key);
  }
  for (const LoggedCall& call : expected) {
    SCOPED_TRACE("ad " + std::to_string(call.ad) + " request " + call.request);
    std::vector<std::string>& keys = logged[{call.request, call.ad}];
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(keys, call.keys);
  }
}

}  // namespace
}  // namespace conformance::vast
