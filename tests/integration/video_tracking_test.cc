// The tracking URLs a video creative hands out, called as a player calls them (docs/video.md
// "Player callbacks", docs/tracking.md, docs/events.md): every URL of a VAST document answers
// 204 and is logged with its kind (impression, click, video milestone, error with the
// player's code, verification_not_executed with its vendor and reason); the click elements
// count without redirecting; a document's impression counts once; [ERRORCODE] and [REASON]
// are logged only when the player put a usable number in their place; a json delivery's
// videoEvents are logged by milestone.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/video_catalog.h"

namespace integration {
namespace {

using simdjson::dom::element;

std::string replaced(std::string text, std::string_view macro, std::string_view value) {
  const size_t at = text.find(macro);
  if (at != std::string::npos) text.replace(at, macro.size(), value);
  return text;
}

std::optional<int64_t> reason_of(const EventLine& line) {
  const JsonBody json(line.text);
  return json.ok() ? int_member(json.root(), "reason") : std::nullopt;
}

// A tracking line as "kind", then " event=...", " code=..." and " reason=..." when present.
std::string summary(const EventLine& line) {
  std::string out = line.kind;
  if (line.event) out += " event=" + *line.event;
  if (line.code) out += " code=" + std::to_string(*line.code);
  if (const std::optional<int64_t> reason = reason_of(line)) out += " reason=" + std::to_string(*reason);
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  return items;
}

class VideoTracking : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(standard_flags({"--catalog=" + catalog_.path(), state_.flag(),
                                                              std::string("--base-url=") + kVideoBaseUrl,
                                                              "--events-flush=50ms"}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
    client_ = std::make_unique<TrackingClient>(*server_);
    DecisionClient decisions(*server_);
    const CurlReply reply = decide_video(decisions, kVideoVersion, "video");
    ASSERT_EQ(reply.status, 200) << reply.body;
    decision_ = std::make_unique<VideoDecision>(reply.body);
    for (std::string_view ad : {"ad_2", "ad_3", "ad_4"}) ASSERT_TRUE(decision_->creative(ad)) << ad << " not served";
  }

  // The VAST document of ad 3 (vast_xml) or ad 4 (vast_tag, fetched).
  std::string document(std::string_view delivery) {
    if (delivery == "vast_xml") {
      const element vast = *member(*decision_->creative("ad_3"), "vast");
      return decode_base64(string_member(vast, "xmlBase64").value_or("")).value_or("");
    }
    const element vast = *member(*decision_->creative("ad_4"), "vast");
    const std::optional<HttpReply> reply =
        client_->request("GET", path_of(string_member(vast, "tagUrl").value_or("")));
    EXPECT_TRUE(reply && reply->status == 200) << client_->last_error();
    return reply ? reply->body : "";
  }

  // GETs a URL under the base URL on the kept-alive connection.
  HttpReply call(std::string_view url) {
    const std::string path = path_of(url);
    EXPECT_FALSE(path.empty()) << url;
    const std::optional<HttpReply> reply = client_->request("GET", path);
    if (!reply) {
      ADD_FAILURE() << url << ": " << client_->last_error();
      return {};
    }
    return *reply;
  }

  // The URL of the document's element (first of that name).
  static std::string url_of(const std::string& document, std::string_view element) {
    for (const DocumentUrl& url : tracking_urls_of(document)) {
      if (url.element == element) return url.url;
    }
    ADD_FAILURE() << "no " << element << " in " << document;
    return "";
  }

  // The tracking lines (every kind but decision), once count of them are logged.
  std::vector<EventLine> tracking_lines(size_t count) {
    std::vector<EventLine> out;
    for (EventLine& line : wait_for_event_lines(state_.path(), [count](const std::vector<EventLine>& lines) {
           return lines.size() - count_kind(lines, "decision") >= count;
         })) {
      if (line.kind != "decision") out.push_back(std::move(line));
    }
    return out;
  }

  StateDirWithKeys state_;
  TempFile catalog_{"catalog.json", video_catalog_json()};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<TrackingClient> client_;
  std::unique_ptr<VideoDecision> decision_;
};

struct DocumentCase {
  const char* delivery;
  uint64_t ad;
  std::vector<std::string> logged;  // summary() of every line, sorted
};

void PrintTo(const DocumentCase& c, std::ostream* out) { *out << c.delivery; }

class VideoTrackingUrls : public VideoTracking, public ::testing::WithParamInterface<DocumentCase> {};

TEST_P(VideoTrackingUrls, EveryUrlOfTheDocumentAnswers204AndIsLoggedWithItsKind) {
  const DocumentCase& c = GetParam();
  const std::string doc = document(c.delivery);
  const std::vector<DocumentUrl> urls = tracking_urls_of(doc);
  ASSERT_EQ(urls.size(), c.logged.size()) << doc;
  for (const DocumentUrl& url : urls) {
    // What a player puts in place of the macros: a VAST error code, a verification reason.
    const HttpReply reply = call(replaced(replaced(url.url, "[ERRORCODE]", "405"), "[REASON]", "2"));
    EXPECT_EQ(reply.status, 204) << url.element << ": " << reply.body;
    EXPECT_FALSE(reply.header("Location")) << url.element;
    EXPECT_EQ(reply.header("Cache-Control"), "no-store") << url.element;
  }
  const std::vector<EventLine> lines = tracking_lines(urls.size());
  std::vector<std::string> logged;
  const std::string request = ad_serving_id_of(doc).substr(0, 32);
  for (const EventLine& line : lines) {
    logged.push_back(summary(line));
    EXPECT_EQ(line.ad, c.ad) << line.text;
    EXPECT_EQ(line.creative, c.ad * 10) << line.text;
    EXPECT_EQ(line.placement, 7u) << line.text;
    EXPECT_EQ(line.request, request) << line.text;
    EXPECT_EQ(line.duplicate, false) << line.text;
  }
  EXPECT_EQ(sorted(logged), c.logged);
}

INSTANTIATE_TEST_SUITE_P(
    VideoDelivery, VideoTrackingUrls,
    ::testing::Values(DocumentCase{"vast_xml", 3,
                                   {"click", "click", "error code=405", "impression",
                                    "verification_not_executed event=xml-vendor reason=2", "video event=complete",
                                    "video event=first_quartile", "video event=midpoint", "video event=skip",
                                    "video event=start", "video event=third_quartile"}},
                      DocumentCase{"vast_tag", 4,
                                   {"click", "error code=405", "impression", "video event=complete",
                                    "video event=first_quartile", "video event=midpoint", "video event=start",
                                    "video event=third_quartile"}}),
    [](const ::testing::TestParamInfo<DocumentCase>& info) {
      return std::string(info.param.delivery) == "vast_xml" ? std::string("VastXml") : std::string("VastTag");
    });

TEST_F(VideoTracking, ClickElementsAnswer204WithoutARedirect) {
  const std::string doc = document("vast_xml");
  for (std::string_view element : {"ClickTracking", "CompanionClickTracking"}) {
    const HttpReply reply = call(url_of(doc, element));
    EXPECT_EQ(reply.status, 204) << element;
    EXPECT_FALSE(reply.header("Location")) << element << ": the player follows ClickThrough itself";
  }
  const std::vector<EventLine> lines = tracking_lines(2);
  EXPECT_EQ(count_kind(lines, "click"), 2u);
}

TEST_F(VideoTracking, DocumentImpressionIsCountedOnce) {
  const std::string impression = url_of(document("vast_xml"), "Impression");
  for (int call_number = 0; call_number < 3; ++call_number) EXPECT_EQ(call(impression).status, 204);
  const std::vector<EventLine> lines = tracking_lines(3);
  EXPECT_EQ(count_impressions(lines, false), 1u);
  EXPECT_EQ(count_impressions(lines, true), 2u);
}

// Each fetch of a tag seals its document's tokens anew; the impression is of the served ad,
// so a player that fetches the tag twice and fires both impressions counts one.
TEST_F(VideoTracking, TwoFetchesOfOneTagCountOneImpression) {
  const std::string first = url_of(document("vast_tag"), "Impression");
  const std::string second = url_of(document("vast_tag"), "Impression");
  ASSERT_NE(first, second) << "each fetch seals new tokens";
  EXPECT_EQ(call(first).status, 204);
  EXPECT_EQ(call(second).status, 204);
  const std::vector<EventLine> lines = tracking_lines(2);
  EXPECT_EQ(count_impressions(lines, false), 1u);
  EXPECT_EQ(count_impressions(lines, true), 1u);
}

TEST_F(VideoTracking, PlayerErrorCodeIsLoggedWhen100To999ElseAs900) {
  const std::string error = url_of(document("vast_xml"), "Error");
  const std::string base = error.substr(0, error.find("&code="));
  const std::vector<std::pair<std::string, int64_t>> calls = {
      {"&code=405", 405},          {"&code=100", 100}, {"&code=999", 999},  {"&code=99", 900},
      {"&code=1000", 900},         {"&code=4o5", 900}, {"&code=", 900},     {"", 900},
      {"&code=%5BERRORCODE%5D", 900}, {"&code=[ERRORCODE]", 900},
  };
  std::vector<int64_t> expected;
  for (const auto& [suffix, code] : calls) {
    const HttpReply reply = call(base + suffix);
    EXPECT_EQ(reply.status, 204) << suffix << ": " << reply.body;
    expected.push_back(code);
  }
  std::vector<int64_t> logged;
  for (const EventLine& line : tracking_lines(calls.size())) {
    EXPECT_EQ(line.kind, "error") << line.text;
    logged.push_back(line.code.value_or(-1));
  }
  std::sort(expected.begin(), expected.end());
  std::sort(logged.begin(), logged.end());
  EXPECT_EQ(logged, expected);
}

TEST_F(VideoTracking, VerificationReasonIsLoggedWhen1To999WithTheVendor) {
  const std::string url = url_of(document("vast_xml"), "Tracking:verificationNotExecuted");
  const std::string base = url.substr(0, url.find("&reason="));
  const std::vector<std::pair<std::string, int64_t>> calls = {
      {"&reason=2", 2},   {"&reason=1", 1},   {"&reason=999", 999},          {"&reason=0", -1},
      {"&reason=02", -1}, {"&reason=1000", -1}, {"", -1},                    {"&reason=%5BREASON%5D", -1},
      {"&reason=[REASON]", -1},
  };
  std::vector<int64_t> expected;
  for (const auto& [suffix, reason] : calls) {
    const HttpReply reply = call(base + suffix);
    EXPECT_EQ(reply.status, 204) << suffix << ": " << reply.body;
    expected.push_back(reason);
  }
  std::vector<int64_t> logged;
  for (const EventLine& line : tracking_lines(calls.size())) {
    EXPECT_EQ(line.kind, "verification_not_executed") << line.text;
    EXPECT_EQ(line.event, "xml-vendor") << line.text;
    logged.push_back(reason_of(line).value_or(-1));
  }
  std::sort(expected.begin(), expected.end());
  std::sort(logged.begin(), logged.end());
  EXPECT_EQ(logged, expected);
}

TEST_F(VideoTracking, JsonDeliveryVideoEventsAreLoggedByMilestone) {
  const element tracking = *member(*decision_->creative("ad_2"), "tracking");
  std::vector<std::string> expected;
  for (element item : array_member(tracking, "videoEvents")) {
    const std::string key = string_member(item, "key").value_or("");
    EXPECT_EQ(call(string_member(item, "value").value_or("")).status, 204) << key;
    expected.push_back("video event=" + key);
  }
  ASSERT_EQ(expected.size(), 6u);
  std::vector<std::string> logged;
  for (const EventLine& line : tracking_lines(expected.size())) {
    logged.push_back(summary(line));
    EXPECT_EQ(line.ad, 2u);
  }
  EXPECT_EQ(sorted(logged), sorted(expected));
}

}  // namespace
}  // namespace integration
