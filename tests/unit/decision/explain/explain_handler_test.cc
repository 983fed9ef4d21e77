// The explain endpoint as a whole: the decision endpoint's errors, an explain that leaves
// no trace (cap state, generator, tokens), reproducible draws, the warnings and facts, and
// the hand-over to the core that owns the user.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>

#include "caps/shard_format.h"
#include "tests/unit/decision/explain/explain_fixture.h"
#include "tests/unit/decision/response/response_fixtures.h"
#include "tests/unit/runtime/queue_channel.h"

namespace decision::explain::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ExplainHandlerTest : public ExplainTest {
 protected:
  std::unique_ptr<endpoint::DecisionHandler> make_decider(uint64_t seed) {
    decision_settings_ = settings(seed);
    routes_.push_back(std::make_unique<user_state::OwnerCoreRoute<endpoint::DecisionAsk>>("/v1/decision", caps_, 0,
                                                                                          nullptr, nullptr, 0));
    return std::make_unique<endpoint::DecisionHandler>(clock_, 0, versions_, core_keys_, decision_settings_, catalog_,
                                                       *routes_.back(), nullptr, nullptr);
  }

  struct Reply {
    int status = 0;
    std::string headers;
    std::string body;
    bool operator==(const Reply&) const = default;
  };
  Reply reply_of(http::Handler& handler, std::string_view body, const std::vector<http::Header>& headers) {
    const http::Response& response = post(handler, body, headers);
    return {response.status(), std::string(response.extra_headers()), response.body()};
  }

  // Every shard of the partition, serialized: what "cap state unchanged" compares.
  std::string cap_state() const {
    std::string out;
    for (uint32_t shard = 0; shard < caps::CapPartition::kShards; ++shard) caps_.serialize_shard(shard, kNowS, out);
    return out;
  }

  tracking::KeyRing keys_ = response::testing::response_keys();
  tracking::CoreKeys core_keys_{keys_};  // the core's codecs, which every handler of a core shares
  endpoint::DecisionSettings decision_settings_;
};

TEST_F(ExplainHandlerTest, BadInputGetsTheDecisionEndpointsExactErrors) {
  auto explainer = make_explainer(1);
  auto decider = make_decider(1);
  const std::vector<http::Header> v20251101 = {{"Content-Type", "application/json"}, {"X-Decision-Version", "2025-11-01"}};
  const struct {
    std::string_view name;
    std::string body;
    std::vector<http::Header> headers;
    int status;
  } cases[] = {
      {"not JSON", "[1,", kJsonOnly, 400},
      {"not an object", "[1]", kJsonOnly, 400},
      {"wrong media type", "{}", {{"Content-Type", "text/plain"}}, 415},
      {"no media type", "{}", {}, 415},
      {"two media types", "{}", {{"Content-Type", "application/json"}, {"Content-Type", "application/json"}}, 415},
      {"every validation error", R"({"placements":[{"key":1,"count":0}],"user":{"ip":"x"}})", kJsonOnly, 422},
      {"format under 2025-11-01", R"({"placements":[{"key":"rules","format":"audio"}]})", v20251101, 422},
      {"bad version", "{}", {{"X-Decision-Version", "latest"}}, 400},
      {"unknown version", "{}", {{"X-Decision-Version", "2024-01-01"}}, 400},
      {"two versions", "{}", {{"X-Decision-Version", "2025-11-01"}, {"X-Decision-Version", "2025-11-01"}}, 400},
  };
  for (const auto& c : cases) {
    const Reply decided = reply_of(*decider, c.body, c.headers);
    const Reply explained = reply_of(*explainer, c.body, c.headers);
    EXPECT_EQ(explained.status, c.status) << c.name;
    EXPECT_EQ(explained, decided) << c.name << "\n" << explained.body << "\n" << decided.body;
  }
  EXPECT_EQ(explainer->counters().invalid_bodies.get(), 4u);
  EXPECT_EQ(explainer->counters().wrong_media_type.get(), 3u);
  EXPECT_EQ(explainer->counters().rejected_versions.get(), 3u);
}

TEST_F(ExplainHandlerTest, ASunsetVersionGetsTheDecisionEndpoints410) {
  versions_ = *api_versions::VersionTable::parse(
      R"([{"version": "2025-01-01", "release": "2025-01-01", "sunset": "2026-07-01", "migrationGuide": "https://example.test/m"},)"
      R"( {"version": "2025-11-01", "release": "2025-11-01"}])");
  auto explainer = make_explainer(1);
  auto decider = make_decider(1);
  const std::vector<http::Header> old = {{"Content-Type", "application/json"}, {"X-Decision-Version", "2025-01-01"}};
  const Reply explained = reply_of(*explainer, kRulesBody, old);
  EXPECT_EQ(explained.status, 410);
  EXPECT_THAT(explained.body, HasSubstr(R"("code":10043)"));
  EXPECT_EQ(explained, reply_of(*decider, kRulesBody, old));
}

TEST_F(ExplainHandlerTest, ABodyPastThePublicLimitIs413AsThePublicListenerAnswersIt) {
  auto explainer = make_explainer(1);
  const std::string big(settings_.max_body_bytes + 1, ' ');
  const http::Response& response = post(*explainer, big);
  EXPECT_EQ(response.status(), 413);
  EXPECT_THAT(response.body(), HasSubstr(R"("code":10003)"));
  EXPECT_EQ(explainer->counters().bodies_too_large.get(), 1u);
}

TEST_F(ExplainHandlerTest, RepliesEchoTheVersionAsTheDecisionDoes) {
  auto explainer = make_explainer(1);
  auto decider = make_decider(1);
  EXPECT_EQ(post(*explainer, kRulesBody, kV20251101).extra_headers(), post(*decider, kRulesBody, kV20251101).extra_headers());
  EXPECT_THAT(std::string(post(*explainer, kRulesBody).extra_headers()), HasSubstr("X-Decision-Version: 2025-01-01\r\n"));
}

TEST_F(ExplainHandlerTest, ExplainingLeavesCapStateAndTheDecisionsGeneratorUntouched) {
  // Two deciders with the same seed; explains run between the decisions of one of them.
  auto decider = make_decider(42);
  auto twin = make_decider(42);
  auto explainer = make_explainer(42);
  caps_.record(caps::user_key("u1"), 101, kCaps101, kNowS - 10);
  const std::string before = cap_state();
  const uint64_t entries = caps_.entries();
  const std::string body = R"({"placements":[{"key":"sidebar"},{"key":"home_top","count":2}],"user":{"id":"u1"}})";
  for (int i = 0; i < 32; ++i) {
    const Reply with_explains = reply_of(*decider, body, kJsonOnly);
    explain(*explainer, body);
    explain(*explainer, R"({"placements":[{"key":"sidebar","count":10}],"user":{"id":"u2"}})");
    const Reply without = reply_of(*twin, body, kJsonOnly);
    ASSERT_EQ(with_explains.status, 200);
    // Tokens differ (nonces, request ids); the choices must not.
    EXPECT_EQ(response::testing::without_tokens(with_explains.body), response::testing::without_tokens(without.body));
  }
  EXPECT_EQ(cap_state(), before);
  EXPECT_EQ(caps_.entries(), entries);
}

TEST_F(ExplainHandlerTest, AnExplainMintsNoTrackingUrl) {
  auto explainer = make_explainer(1);
  explain(*explainer, R"({"placements":[{"key":"home_top","count":10}],"user":{"id":"u1"}})", kV20251101);
  EXPECT_THAT(body_, Not(HasSubstr("/v1/tracking")));
  EXPECT_THAT(body_, Not(HasSubstr("/v1/vast")));
  EXPECT_THAT(body_, Not(HasSubstr("ads.example.test")));
}

TEST_F(ExplainHandlerTest, TheSameRequestExplainsTheSameWayOnAnyCoreWithTheSameSeed) {
  auto core0 = make_explainer(7, 0);
  auto core1 = make_explainer(7, 1);
  const std::string body = R"({"placements":[{"key":"sidebar"},{"key":"home_top","count":2}]})";
  const std::string first = json_of(explain(*core0, body)["data"]["placements"]);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(json_of(explain(*core0, body)["data"]["placements"]), first);
    EXPECT_EQ(json_of(explain(*core1, body)["data"]["placements"]), first);
  }
  // Another seed draws otherwise (sidebar's two equal weights: 2^-20 to fail by chance).
  auto other = make_explainer(8, 0);
  bool differs = false;
  for (uint64_t seed = 8; seed < 28 && !differs; ++seed) {
    other = make_explainer(seed, 0);
    differs = json_of(explain(*other, body)["data"]["placements"]) != first;
  }
  EXPECT_TRUE(differs);
}

TEST_F(ExplainHandlerTest, TheDecisionCarriesTheWarningsTheRealOneWould) {
  auto explainer = make_explainer(1);
  // No Accept-Language (20001), an unknown placement (20003).
  auto root = explain(*explainer, R"({"placements":[{"key":"home_top"},{"key":"nope"}]})");
  EXPECT_EQ(json_of(root["data"]["decision"]["warnings"]),
            R"([{"code":20001,"message":"Accept-Language is missing; content is in the default language",)"
            R"("details":{"header":"Accept-Language","default_language":"en"}},)"
            R"({"code":20003,"message":"unknown placement key; its decision has no creatives",)"
            R"("details":{"field":"placements[1].key","placement":"nope"}}])");
  EXPECT_EQ(json_of(root["data"]["placements"].at(1)),
            R"({"index":1,"placement":"nope","placementId":null,"known":false,"count":1,)"
            R"("filters":{"format":"native","formatFromVersion":true,"advertiser":null,"template":null},)"
            R"("geo":{"source":"none","ids":[]},"destination":[],"location":[],"tiers":[],"filledBy":null,"candidates":[]})");
  // German asked, none given (20004); envelope warnings stay null.
  root = explain(*explainer, R"({"placements":[{"key":"home_top","count":1}]})",
                 {{"Content-Type", "application/json"}, {"Accept-Language", "de"}});
  EXPECT_EQ(json_of(root["data"]["decision"]["warnings"]),
            R"([{"code":20004,"message":"no content in the requested languages; the default language is used",)"
            R"("details":{"field":"placements[0]","default_language":"en"}}])");
  EXPECT_EQ(json_of(root["warnings"]), "null");
  EXPECT_EQ(json_of(root["data"]["decision"]["placements"].at(0)),
            R"({"placement":"home_top","placementId":"placement_7","creatives":[{"ad":"ad_101","creative":"creative_201",)"
            R"("placement":"placement_7","advertiser":"advertiser_1","template":"template_3","priority":"sponsorship",)"
            R"("format":"native","delivery":null,"language":"en"}]})");
}

TEST_F(ExplainHandlerTest, TheFactsSayWhatTheRulesRead) {
  auto explainer = make_explainer(1);
  const auto root = explain(
      *explainer, R"({"placements":[{"key":"rules"}],"user":{"id":"u9","ip":"192.0.2.1","timezone":"Europe/Lisbon"}})",
      {{"Content-Type", "application/json"}, {"Accept-Language", "fr-CH, fr;q=0.9, de;q=0"}, {"X-Decision-Version", "2025-11-01"}});
  const simdjson::dom::element facts = root["data"]["request"];
  EXPECT_EQ(json_of(facts["version"]),
            R"({"served":"2025-11-01","phase":"active","deprecated":false,"features":{"formatFilter":true,"video":true,)"
            R"("verification":true,"destinationTargeting":true,"templateInResponse":true}})");
  EXPECT_EQ(std::string_view(facts["now"]), "2026-11-27T00:00:00Z");
  EXPECT_EQ(std::string_view(facts["catalogRevision"]), "explain-test.1");
  EXPECT_EQ(json_of(facts["cores"]), R"({"received":0,"decided":0,"userOwner":0})");
  EXPECT_EQ(json_of(facts["user"]), R"({"id":"u9","ip":"192.0.2.1","timezone":"Europe/Lisbon"})");
  EXPECT_EQ(json_of(facts["geoip"]),
            R"({"database":false,"found":false,"country":null,"subdivision":null,"city":null,"inEuropeanUnion":false,"timeZone":null})");
  EXPECT_EQ(json_of(facts["gdpr"]),
            R"({"territory":false,"because":[],"consent":"absent","consentStringPurpose1":null,"userIdUsable":true})");
  EXPECT_EQ(json_of(facts["acceptLanguage"]),
            R"({"present":true,"preferred":["fr-CH","fr"],"excluded":["de"],"defaultLanguage":"en"})");
}

// --- Cross-core: the owner of the user explains. ---

// Messages as the reactors would carry them, delivered by the test.
// The first user id of the form "user-<n>" that core `core` of 2 owns.
std::string user_owned_by(uint32_t core) {
  for (int n = 0;; ++n) {
    std::string id = "user-" + std::to_string(n);
    if (caps::owner_core(caps::user_key(id), 2) == core) return id;
  }
}

class CrossCoreExplainTest : public ExplainHandlerTest {
 protected:
  using Asks = runtime::CrossCoreAsks<ExplainAsk>;
  void SetUp() override {
    settings_ = settings(5);
    for (uint32_t core = 0; core < 2; ++core) {
      owner_routes_.push_back(std::make_unique<user_state::OwnerCoreRoute<ExplainAsk>>(
          "/admin/explain", partitions_[core], core, &channels_[core], &peers_, ExplainHandler::kMaxAsksInFlight));
      handlers_.push_back(std::make_unique<ExplainHandler>(clock_, core, versions_, settings_, catalog_,
                                                           *owner_routes_.back(), nullptr));
    }
  }

  std::deque<runtime::PostedMessage> posted_;
  runtime::QueueChannel channels_[2] = {{0, 2, posted_}, {1, 2, posted_}};
  caps::CapPartition partitions_[2];
  // Built before the handlers, which join it, as ProcessView's tables are.
  runtime::AskPeers<ExplainAsk> peers_{2};
  std::vector<std::unique_ptr<user_state::OwnerCoreRoute<ExplainAsk>>> owner_routes_;  // by core
  std::vector<std::unique_ptr<ExplainHandler>> handlers_;
};

TEST_F(CrossCoreExplainTest, AUserOfAnotherCoreIsExplainedThereWithThatCoresCaps) {
  const std::string user = user_owned_by(1);
  partitions_[1].record(caps::user_key(user), 311, kCaps311, kNowS - 60);
  const std::string body = R"({"placements":[{"key":"rules","count":10}],"user":{"id":")" + user + R"("}})";
  const http::Response& response = post(*handlers_[0], body, kV20251101);
  ASSERT_TRUE(response.deferred());
  ASSERT_EQ(posted_.size(), 1u);
  EXPECT_EQ(posted_.front().to, 1u);
  EXPECT_EQ(owner_routes_[0]->in_flight(), 1u);

  Asks::deliver(posted_.front().message);  // on core 1
  posted_.pop_front();
  ASSERT_EQ(posted_.size(), 1u);
  EXPECT_EQ(posted_.front().to, 0u);
  const auto* ask = static_cast<const ExplainAsk*>(posted_.front().message.pointer);
  ASSERT_EQ(ask->reply().status(), 200) << ask->reply().body();
  EXPECT_THAT(std::string(ask->reply().extra_headers()), HasSubstr("X-Decision-Version: 2025-11-01\r\n"));
  simdjson::dom::element root;
  body_ = ask->reply().body();
  ASSERT_EQ(parser_.parse(body_).get(root), simdjson::SUCCESS);
  EXPECT_EQ(json_of(root["data"]["request"]["cores"]), R"({"received":0,"decided":1,"userOwner":1})");
  EXPECT_THAT(rule_of(root, 0, "ad_311"), HasSubstr(R"("counted":1,"pending":0,"exact":true,"holds":false)"));
  EXPECT_EQ(owner_routes_[1]->ask_counters().served.get(), 1u);

  Asks::deliver(posted_.front().message);  // back on core 0
  posted_.pop_front();
  EXPECT_EQ(owner_routes_[0]->in_flight(), 0u);
  EXPECT_EQ(owner_routes_[0]->ask_counters().sent.get(), 1u);
  // In process there is no connection to take the reply: counted as a client that left.
  EXPECT_EQ(owner_routes_[0]->ask_counters().abandoned.get(), 1u);
}

TEST_F(CrossCoreExplainTest, UsersWhoseCapsDoNotApplyAreExplainedWhereTheyArrive) {
  const std::string user = user_owned_by(1);
  const auto root = explain(*handlers_[0], R"({"placements":[{"key":"rules"}],"user":{"id":")" + user +
                                               R"(","consent":{"gdpr":false}}})");
  EXPECT_TRUE(posted_.empty());
  EXPECT_EQ(json_of(root["data"]["request"]["cores"]), R"({"received":0,"decided":0,"userOwner":null})");
  explain(*handlers_[0], R"({"placements":[{"key":"rules"}]})");
  EXPECT_TRUE(posted_.empty());
  explain(*handlers_[0], R"({"placements":[{"key":"rules"}],"user":{"id":")" + user_owned_by(0) + R"("}})");
  EXPECT_TRUE(posted_.empty());
}

TEST_F(CrossCoreExplainTest, AFullQueueOrTheBoundOfAsksIs503) {
  const std::string body = R"({"placements":[{"key":"rules"}],"user":{"id":")" + user_owned_by(1) + R"("}})";
  channels_[0].refuse = true;
  http::Response& refused = post(*handlers_[0], body);
  EXPECT_EQ(refused.status(), 503);
  EXPECT_FALSE(refused.deferred());
  EXPECT_THAT(refused.body(), HasSubstr(R"("code":10098)"));
  EXPECT_THAT(std::string(refused.extra_headers()), HasSubstr("Retry-After: 1\r\n"));
  channels_[0].refuse = false;
  for (uint32_t i = 0; i < ExplainHandler::kMaxAsksInFlight; ++i) EXPECT_TRUE(post(*handlers_[0], body).deferred());
  EXPECT_EQ(post(*handlers_[0], body).status(), 503);
  EXPECT_EQ(owner_routes_[0]->ask_counters().refused.get(), 2u);
}

// The queue budget (runtime/queue_budget.h) keeps room for every answer, so an answer the
// queue home refuses is a broken invariant: the process stops rather than lose the reply.
TEST_F(CrossCoreExplainTest, AnAnswerTheQueueHomeRefusesStopsTheProcess) {
  const std::string body = R"({"placements":[{"key":"rules"}],"user":{"id":")" + user_owned_by(1) + R"("}})";
  ASSERT_TRUE(post(*handlers_[0], body).deferred());
  channels_[1].refuse = true;
  const runtime::Message ask = posted_.front().message;
  EXPECT_DEATH(Asks::deliver(ask), "check failed: .*a cross-core answer found its queue home full");
}

TEST_F(CrossCoreExplainTest, EachCoreTakesItsKindsShareOfTheMessageQueue) {
  EXPECT_EQ(channels_[0].queue_slots_reserved(),
            runtime::kQueueSlotsForOneWay + runtime::queue_slots_of<ExplainAsk>());
}

}  // namespace
}  // namespace decision::explain::testing
