// The decision handler in process: the order of its checks, what selection it drives,
// what goes into tokens, and that a warm core allocates nothing. Over real sockets the
// same endpoint is tested in tests/integration/decision_test.cc.
#include "decision/endpoint/decision_handler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <array>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "decision/catalog/loader.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/user_state/owner_core_route.h"
#include "decision/user_state/shared_store_route.h"
#include "tests/support/allocation_count.h"
#include "tests/unit/decision/endpoint/endpoint_test_clock.h"
#include "tests/unit/decision/response/response_fixtures.h"

namespace decision::endpoint {
namespace {

using testing::kNowNs;

// home_top: 1 sponsorship ad, 2 plain standard ads, one targeted, one whose flight ended.
// sidebar: one of home_top's standard ads and one of its own.
constexpr std::string_view kCatalog = R"json({
  "revision": "handler-test.1",
  "defaultLanguage": "en",
  "priorities": [{"key": "sponsorship", "weight": 100}, {"key": "standard", "weight": 50}],
  "advertisers": [{"id": 1, "name": "One"}, {"id": 2, "name": "Two"}],
  "templates": [{"id": 3, "key": "card"}, {"id": 4, "key": "banner"}],
  "placements": [{"id": 7, "key": "home_top"}, {"id": 8, "key": "sidebar"}],
  "ads": [
    {"id": 101, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "sponsorship",
     "weight": 1, "format": "native", "start": "2026-01-01T00:00:00Z",
     "frequencyCaps": [{"impressions": 1, "windowSeconds": 3600}],
     "creatives": [{"id": 201, "contents": {"en": [{"key": "t", "value": "sponsor"}]}}]},
    {"id": 102, "advertiserId": 2, "placementIds": [7, 8], "templateId": 4, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 202, "contents": {"en": [{"key": "t", "value": "shared"}],
                                            "fr": [{"key": "t", "value": "partagé"}]}}]},
    {"id": 103, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 203, "contents": {"en": [{"key": "t", "value": "plain"}]}}]},
    {"id": 104, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "targeting": {"geo": [3017382]},
     "creatives": [{"id": 204, "contents": {"en": [{"key": "t", "value": "targeted"}]}}]},
    {"id": 105, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z", "end": "2026-02-01T00:00:00Z",
     "creatives": [{"id": 205, "contents": {"en": [{"key": "t", "value": "ended"}]}}]},
    {"id": 106, "advertiserId": 2, "placementIds": [8], "templateId": 4, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 206, "contents": {"en": [{"key": "t", "value": "side"}]}}]}
  ]
})json";

std::shared_ptr<const ServedCatalog> served_catalog() {
  catalog::LoadResult loaded = catalog::load_catalog(kCatalog);
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors.front().to_string();
  return make_served_catalog(loaded.snapshot);
}

const std::vector<http::Header> kJsonOnly = {{"Content-Type", "application/json"}};

class DecisionHandlerTest : public ::testing::Test {
 protected:
  static DecisionSettings settings_with(uint64_t seed) {
    DecisionSettings settings;
    settings.base_url = "https://ads.example.test";
    settings.seed = seed;
    settings.process_start_wall_ns = kNowNs;
    return settings;
  }

  DecisionHandler make_handler(uint64_t seed) {
    // One core, which owns every user: caps are read from caps_ in place.
    routes_.push_back(std::make_unique<user_state::OwnerCoreRoute<DecisionAsk>>("/v1/decision", caps_, 0, nullptr,
                                                                                nullptr, 0));
    return DecisionHandler(clock_, 0, versions_, core_keys_, settings_with(seed), catalog_, *routes_.back(), nullptr,
                           nullptr);
  }

  // Cluster mode as the service wires it: caps read from store, at most waits waiting for
  // it, the cluster mode's kept parses.
  DecisionHandler make_cluster_handler(uint64_t seed, caps::SharedCapStore& store, uint32_t waits) {
    DecisionSettings settings = settings_with(seed);
    settings.kept_intakes = kKeptIntakesInClusterMode;
    routes_.push_back(std::make_unique<user_state::SharedStoreRoute>("/v1/decision", store, 0, waits));
    return DecisionHandler(clock_, 0, versions_, core_keys_, settings, catalog_, *routes_.back(), nullptr, nullptr);
  }
  // The route of the handler made last.
  const user_state::RouteCounters& route_counters() const { return routes_.back()->counters(); }

  http::Response& post(DecisionHandler& handler, std::string_view body,
                       const std::vector<http::Header>& headers = kJsonOnly) {
    request_ = http::Request{};
    request_.method = http::Method::kPost;
    request_.path = "/v1/decision";
    for (const http::Header& header : headers) request_.headers[request_.header_count++] = header;
    request_.body = body;
    response_.reset();
    handler.handle(request_, response_);
    return response_;
  }

  // The ad ids of each placement's creatives.
  static std::vector<std::vector<std::string>> ads_of(const http::Response& response) {
    EXPECT_EQ(response.status(), 200) << response.body();
    std::vector<std::vector<std::string>> out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(simdjson::padded_string(response.body())).get(root) != simdjson::SUCCESS) {
      ADD_FAILURE() << response.body();
      return out;
    }
    for (simdjson::dom::element placement : root["data"].get_array()) {
      out.emplace_back();
      for (simdjson::dom::element creative : placement["creatives"].get_array()) {
        out.back().emplace_back(std::string_view(creative["metadata"]["adId"].get_string()));
      }
    }
    return out;
  }

  runtime::ManualClock clock_{kNowNs};
  api_versions::VersionTable versions_ = api_versions::VersionTable::built_in();
  tracking::KeyRing keys_ = response::testing::response_keys();
  tracking::CoreKeys core_keys_{keys_};  // the core's codecs, which every handler of a core shares
  std::shared_ptr<const ServedCatalog> catalog_ = served_catalog();
  caps::CapPartition caps_;
  std::vector<std::unique_ptr<user_state::UserStateRoute>> routes_;  // one per handler made
  http::Request request_;
  http::Response response_;
};

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

TEST_F(DecisionHandlerTest, TheHeaviestTierWinsAndUntargetedActiveAdsFillTheRest) {
  DecisionHandler handler = make_handler(1);
  for (int i = 0; i < 20; ++i) {
    const auto ads = ads_of(post(handler, R"({"placements":[{"key":"home_top","count":10}]})"));
    ASSERT_EQ(ads.size(), 1u);
    // 104 targets France and no geo is known; 105's flight has ended.
    ASSERT_EQ(ads[0].size(), 3u);
    EXPECT_EQ(ads[0][0], "ad_101");
    EXPECT_THAT(ads[0], UnorderedElementsAre("ad_101", "ad_102", "ad_103"));
  }
}

TEST_F(DecisionHandlerTest, ATargetedAdIsEligibleWhereItsRulesHold) {
  DecisionHandler handler = make_handler(11);
  // 104 targets France; the request places itself in France.
  const auto ads = ads_of(post(handler, R"({"placements":[{"key":"home_top","count":10,"targeting":{"geo":[3017382]}}]})"));
  EXPECT_THAT(ads[0], UnorderedElementsAre("ad_101", "ad_102", "ad_103", "ad_104"));
}

TEST_F(DecisionHandlerTest, AnAdIsNeverChosenTwiceInOneResponse) {
  DecisionHandler handler = make_handler(2);
  for (int i = 0; i < 20; ++i) {
    const auto ads = ads_of(post(
        handler, R"({"placements":[{"key":"home_top","count":10},{"key":"sidebar","count":10}]})"));
    EXPECT_THAT(ads[1], ElementsAre("ad_106"));  // 102 went to home_top
  }
  // Alone, the sidebar gets both of its ads.
  EXPECT_THAT(ads_of(post(handler, R"({"placements":[{"key":"sidebar","count":10}]})"))[0],
              UnorderedElementsAre("ad_102", "ad_106"));
}

TEST_F(DecisionHandlerTest, FiltersNarrowTheCandidates) {
  DecisionHandler handler = make_handler(3);
  EXPECT_THAT(ads_of(post(handler, R"({"placements":[{"key":"home_top","count":10,"advertiserId":"advertiser_2"}]})"))[0],
              ElementsAre("ad_102"));
  EXPECT_THAT(ads_of(post(handler, R"({"placements":[{"key":"sidebar","count":10,"templateId":"template_4"}]})"))[0],
              UnorderedElementsAre("ad_102", "ad_106"));
  EXPECT_THAT(ads_of(post(handler, R"({"placements":[{"key":"home_top","templateId":"template_9"}]})"))[0],
              ElementsAre());
}

TEST_F(DecisionHandlerTest, VideoIsNotServedYetAndFormatIsIgnoredBefore20251101) {
  DecisionHandler handler = make_handler(4);
  const std::string video = R"({"placements":[{"key":"home_top","format":"video"}]})";
  EXPECT_THAT(ads_of(post(handler, video, {{"Content-Type", "application/json"},
                                           {"X-Decision-Version", "2025-11-01"}}))[0],
              ElementsAre());
  EXPECT_THAT(ads_of(post(handler, video))[0], ElementsAre("ad_101"));
}

TEST_F(DecisionHandlerTest, TheSameSeedMakesTheSameChoices) {
  DecisionHandler first = make_handler(42);
  DecisionHandler second = make_handler(42);
  DecisionHandler other = make_handler(43);
  const std::string body = R"({"placements":[{"key":"sidebar"}]})";
  std::vector<std::string> a, b, c;
  for (int i = 0; i < 64; ++i) {
    a.push_back(ads_of(post(first, body))[0].at(0));
    b.push_back(ads_of(post(second, body))[0].at(0));
    c.push_back(ads_of(post(other, body))[0].at(0));
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);  // 2^-64 to fail by chance with two equal weights
}

TEST_F(DecisionHandlerTest, VersionIsCheckedBeforeTheMediaTypeAndEchoedAfter) {
  DecisionHandler handler = make_handler(5);
  http::Response& bad_version = post(handler, "{}", {{"X-Decision-Version", "latest"}});
  EXPECT_EQ(bad_version.status(), 400);
  EXPECT_THAT(bad_version.body(), HasSubstr(R"("code":10042)"));
  EXPECT_THAT(std::string(bad_version.extra_headers()), ::testing::Not(HasSubstr("X-Decision-Version")));

  http::Response& wrong_type = post(handler, "{}", {{"Content-Type", "text/plain"}});
  EXPECT_EQ(wrong_type.status(), 415);
  EXPECT_THAT(wrong_type.body(), HasSubstr(R"("code":10002)"));
  EXPECT_THAT(std::string(wrong_type.extra_headers()), HasSubstr("X-Decision-Version: 2025-01-01\r\n"));

  http::Response& no_type = post(handler, "{}", {});
  EXPECT_EQ(no_type.status(), 415);
}

TEST_F(DecisionHandlerTest, RepeatedVersionOrMediaTypeHeadersAreNotGuessedBetween) {
  DecisionHandler handler = make_handler(10);
  const std::string body = R"({"placements":[{"key":"home_top"}]})";
  http::Response& versions = post(handler, body, {{"Content-Type", "application/json"},
                                                  {"X-Decision-Version", "2025-11-01"},
                                                  {"x-decision-version", "2025-11-01"}});
  EXPECT_EQ(versions.status(), 400);
  EXPECT_THAT(versions.body(), HasSubstr(R"("code":10042)"));
  http::Response& types = post(handler, body, {{"Content-Type", "application/json"},
                                               {"Content-Type", "application/json"}});
  EXPECT_EQ(types.status(), 415);
  EXPECT_EQ(post(handler, body, {{"Content-Type", "application/json"},
                                 {"X-Decision-Version", "2025-11-01"}}).status(), 200);
}

TEST_F(DecisionHandlerTest, BadBodiesGetTheReadersStatusAndEveryError) {
  DecisionHandler handler = make_handler(6);
  EXPECT_EQ(post(handler, "[1,").status(), 400);
  EXPECT_THAT(response_.body(), HasSubstr(R"("code":10001)"));
  http::Response& invalid = post(handler, R"({"placements":[{"key":1,"count":0}],"user":{"ip":"x"}})");
  EXPECT_EQ(invalid.status(), 422);
  EXPECT_THAT(invalid.body(), HasSubstr(R"("field":"placements[0].key")"));
  EXPECT_THAT(invalid.body(), HasSubstr(R"("field":"placements[0].count")"));
  EXPECT_THAT(invalid.body(), HasSubstr(R"("field":"user.ip")"));
  EXPECT_EQ(handler.counters().invalid_bodies.get(), 2u);
}

TEST_F(DecisionHandlerTest, AUserWhoRefusedConsentIsLeftOutOfTokens) {
  DecisionHandler handler = make_handler(7);
  tracking::TokenCodec codec(keys_);
  std::string storage;
  const auto user_in_tokens = [&](std::string_view body) {
    const http::Response& response = post(handler, body);
    EXPECT_EQ(response.status(), 200);
    std::optional<std::string> user;
    for (const std::string& token : response::testing::tokens_in(response.body())) {
      const tracking::DecodedToken decoded = codec.decode(token, kNowNs / 1'000'000'000, storage);
      EXPECT_TRUE(decoded.ok());
      if (decoded.event.user_id) user = std::string(*decoded.event.user_id);
    }
    return user;
  };
  EXPECT_EQ(user_in_tokens(R"({"placements":[{"key":"home_top"}],"user":{"id":"u1"}})"), "u1");
  EXPECT_EQ(user_in_tokens(R"({"placements":[{"key":"home_top"}],"user":{"id":"u1","consent":{"gdpr":true}}})"), "u1");
  EXPECT_EQ(user_in_tokens(R"({"placements":[{"key":"home_top"}],"user":{"id":"u1","consent":{"gdpr":false}}})"),
            std::nullopt);
}

TEST_F(DecisionHandlerTest, EachDecisionHasItsOwnRequestId) {
  DecisionHandler handler = make_handler(8);
  tracking::TokenCodec codec(keys_);
  std::string storage;
  std::set<tracking::RequestId> ids;
  for (int i = 0; i < 10; ++i) {
    const http::Response& response = post(handler, R"({"placements":[{"key":"home_top","count":3}]})");
    std::set<tracking::RequestId> in_response;
    for (const std::string& token : response::testing::tokens_in(response.body())) {
      in_response.insert(codec.decode(token, kNowNs / 1'000'000'000, storage).event.request_id);
    }
    ASSERT_EQ(in_response.size(), 1u);
    ids.insert(*in_response.begin());
  }
  EXPECT_EQ(ids.size(), 10u);
}

TEST_F(DecisionHandlerTest, AWarmCoreAllocatesNothingPerDecision) {
  DecisionHandler handler = make_handler(9);
  const std::string body =
      R"({"placements":[{"key":"home_top","count":3},{"key":"sidebar"},{"key":"nope"}],)"
      R"("user":{"id":"user-1","ip":"192.0.2.1","timezone":"Europe/Paris"},"device":{"os":"ios"}})";
  const std::vector<http::Header> headers = {{"Content-Type", "application/json"},
                                             {"Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8"},
                                             {"X-Decision-Version", "2025-11-01"}};
  for (int i = 0; i < 8; ++i) post(handler, body, headers);  // warm: buffers, zone cache
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 100; ++i) ASSERT_EQ(post(handler, body, headers).status(), 200);
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(handler.counters().decisions.get(), 108u);
}

}  // namespace
}  // namespace decision::endpoint

namespace decision::endpoint {
namespace {

constexpr caps::CapRule kOnePerHour[] = {{1, 3600}};

TEST_F(DecisionHandlerTest, AdWhoseCapTheUserReachedIsNotServedToThatUser) {
  DecisionHandler handler = make_handler(21);
  const std::string u1 = R"({"placements":[{"key":"home_top","count":10}],"user":{"id":"u1"}})";
  EXPECT_THAT(ads_of(post(handler, u1))[0], ::testing::Contains("ad_101"));
  caps_.record(caps::user_key("u1"), 101, kOnePerHour, kNowNs / 1'000'000'000);
  EXPECT_THAT(ads_of(post(handler, u1))[0], ::testing::Not(::testing::Contains("ad_101")));
  // Another user is not capped by u1's impressions.
  EXPECT_THAT(ads_of(post(handler, R"({"placements":[{"key":"home_top","count":10}],"user":{"id":"u2"}})"))[0],
              ::testing::Contains("ad_101"));
}

TEST_F(DecisionHandlerTest, WithoutAUserIdCapsDoNotApply) {
  DecisionHandler handler = make_handler(22);
  caps_.record(caps::user_key(""), 101, kOnePerHour, kNowNs / 1'000'000'000);
  EXPECT_THAT(ads_of(post(handler, R"({"placements":[{"key":"home_top","count":10}]})"))[0],
              ::testing::Contains("ad_101"));
}

TEST_F(DecisionHandlerTest, GdprUserWithoutConsentIsNeitherCappedNorRead) {
  DecisionHandler handler = make_handler(23);
  caps_.record(caps::user_key("u3"), 101, kOnePerHour, kNowNs / 1'000'000'000);
  // France (3017382) is in GDPR territory; consent refused: no cap state is read.
  const std::string body =
      R"({"placements":[{"key":"home_top","count":10,"targeting":{"geo":[3017382]}}],"user":{"id":"u3","consent":{"gdpr":false}}})";
  EXPECT_THAT(ads_of(post(handler, body))[0], ::testing::Contains("ad_101"));
  const std::string consenting =
      R"({"placements":[{"key":"home_top","count":10,"targeting":{"geo":[3017382]}}],"user":{"id":"u3","consent":{"gdpr":true}}})";
  EXPECT_THAT(ads_of(post(handler, consenting))[0], ::testing::Not(::testing::Contains("ad_101")));
}

}  // namespace
}  // namespace decision::endpoint

namespace decision::endpoint {
namespace {

// A shared cap store that answers when the test says: every read waits until answer_all().
class AnswerWhenToldStore final : public caps::SharedCapStore {
 public:
  bool read(uint64_t, caps::CapReadDone& done) override {
    if (waiting_count_ == waiting_.size()) return false;
    waiting_[waiting_count_++] = &done;
    return true;
  }
  bool count_impression(const caps::ImpressionStep&, caps::ImpressionDone&) override { return false; }
  void add_pending(uint64_t, uint64_t, int64_t) override {}

  size_t waiting() const { return waiting_count_; }
  void answer_all(const caps::CapReader* state) {
    const size_t count = std::exchange(waiting_count_, 0);
    for (size_t i = 0; i < count; ++i) waiting_[i]->on_caps_read(state);
  }

 private:
  std::array<caps::CapReadDone*, 64> waiting_{};
  size_t waiting_count_ = 0;
};

TEST_F(DecisionHandlerTest, AWarmCoreAllocatesNothingPerDecisionThatWaitsForTheSharedStore) {
  AnswerWhenToldStore store;
  DecisionHandler handler = make_cluster_handler(31, store, 16);
  // home_top holds a capped ad (101): every decision for a user waits for the store.
  const std::string body = R"({"placements":[{"key":"home_top","count":3}],"user":{"id":"user-1"}})";
  const std::vector<http::Header> headers = {{"Content-Type", "application/json"},
                                             {"Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8"},
                                             {"X-Decision-Version", "2025-11-01"}};
  auto wait_and_answer = [&](int decisions) {
    for (int i = 0; i < decisions; ++i) EXPECT_TRUE(post(handler, body, headers).deferred());
    EXPECT_EQ(store.waiting(), static_cast<size_t>(decisions));
    store.answer_all(&caps_);
  };
  for (int i = 0; i < 4; ++i) wait_and_answer(16);  // warm: every wait's buffers at their size
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 10; ++i) wait_and_answer(16);
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(handler.counters().decisions.get(), 14u * 16u);
  EXPECT_EQ(route_counters().refused.get(), 0u);
}

// Cluster mode keeps the parse of a decision waiting for the store (kept_intakes.h): it is
// decided from that parse when the state comes back, not parsed again; past the kept
// intakes (32) a wait copies its body and parses it again, and is decided all the same.
TEST_F(DecisionHandlerTest, ADecisionThatWaitsForTheSharedStoreIsParsedOnceWhileIntakesAreFreeToKeep) {
  AnswerWhenToldStore store;
  DecisionHandler handler = make_cluster_handler(32, store, 64);
  const auto wait_for = [&](int decisions) {
    for (int i = 0; i < decisions; ++i) {
      const std::string body =
          R"({"placements":[{"key":"home_top","count":3}],"user":{"id":"waiting-)" + std::to_string(i) + R"("}})";
      EXPECT_TRUE(post(handler, body).deferred());
    }
    EXPECT_EQ(store.waiting(), static_cast<size_t>(decisions));
  };
  wait_for(40);
  EXPECT_EQ(handler.bodies_read(), 40u);
  store.answer_all(&caps_);
  EXPECT_EQ(handler.bodies_read(), 48u) << "the 8 waits past the 32 kept parses are parsed again, and only they";
  wait_for(10);
  store.answer_all(&caps_);
  EXPECT_EQ(handler.bodies_read(), 58u) << "every kept intake came back";
  EXPECT_EQ(handler.counters().parsed_again.get(), 8u);
  EXPECT_EQ(handler.counters().decisions.get(), 50u);
  EXPECT_EQ(route_counters().refused.get(), 0u);
}

}  // namespace
}  // namespace decision::endpoint
