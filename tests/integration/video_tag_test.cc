// GET /v1/vast, the signed VAST tag URL of a vast_tag creative (docs/video.md,
// "`GET /v1/vast`"; docs/errors.md): any change to its query, or a parameter missing or
// repeated, is 403 10052 naming the parameter in details.field; an authentic tag past exp is
// 410 10053; a tag whose ad has left the catalog (or is no longer a video of that placement
// in flight) gets the empty VAST document with 200; keys live in --state-dir, so tags outlive
// a restart. Documents are application/xml, not stored, open to every origin; HEAD is GET
// without the body. Hundreds of refused tags go over one kept-alive connection.
#include <gtest/gtest.h>

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/video_catalog.h"
#include "tests/integration/wall_clock.h"

namespace integration {
namespace {

constexpr char kNoFill[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST xmlns=\"http://www.iab.com/VAST\" version=\"4.2\"></VAST>";

// A tag query split into its parameters, in order.
std::vector<std::pair<std::string, std::string>> parameters_of(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!query.empty()) {
    const size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    const size_t equals = pair.find('=');
    out.emplace_back(std::string(pair.substr(0, equals)),
                     equals == std::string_view::npos ? "" : std::string(pair.substr(equals + 1)));
    query = end == std::string_view::npos ? std::string_view{} : query.substr(end + 1);
  }
  return out;
}

std::string query_of(const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string out;
  for (const auto& [name, value] : parameters) out += (out.empty() ? "" : "&") + name + "=" + value;
  return out;
}

class VideoTag : public ::testing::Test {
 protected:
  // (Re)starts the server on the fixture's state directory with a catalog where ad 4 is as
  // tag_ad says.
  void start(TagAd tag_ad = TagAd::kServed, std::vector<std::string> extra = {}) {
    catalog_ = std::make_unique<TempFile>("catalog.json", video_catalog_json(tag_ad));
    std::vector<std::string> flags = {"--catalog=" + catalog_->path(), state_.flag(),
                                      std::string("--base-url=") + kVideoBaseUrl};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }

  void stop() {
    server_->send_signal(SIGTERM);
    const std::optional<ExitStatus> exit = server_->wait_for_exit();
    ASSERT_TRUE(exit) << "still running after SIGTERM";
    EXPECT_EQ(exit->code, 0) << exit->describe();
    server_.reset();
  }

  // The query ("d=...&exp=...&kid=...&sig=...") of ad 4's tag in a new decision.
  std::string tag_query() {
    DecisionClient client(*server_);
    const CurlReply reply = decide_video(client, kVideoVersion, "video");
    EXPECT_EQ(reply.status, 200) << reply.body;
    const VideoDecision decision(reply.body);
    const std::optional<simdjson::dom::element> tag = decision.creative("ad_4");
    if (!tag) {
      ADD_FAILURE() << "ad_4 not served: " << reply.body;
      return "";
    }
    const std::string url = string_member((*tag)["vast"], "tagUrl").value_or("");
    const std::string prefix = std::string(kVideoBaseUrl) + "/v1/vast?";
    EXPECT_TRUE(url.starts_with(prefix)) << url;
    return url.substr(prefix.size());
  }

  // GET (or HEAD) /v1/vast?query on client, failing the test when no reply came.
  HttpReply fetch(TrackingClient& client, std::string_view query, std::string_view method = "GET") {
    const std::optional<HttpReply> reply = client.request(method, "/v1/vast?" + std::string(query));
    if (!reply) {
      ADD_FAILURE() << method << " " << query << ": " << client.last_error();
      return {};
    }
    return *reply;
  }

  // 403 10052 whose details.field is `field`, or (empty) one of the four parameters.
  void ExpectRefused(TrackingClient& client, std::string_view query, const std::string& what,
                     std::string_view field = "") {
    const HttpReply reply = fetch(client, query);
    EXPECT_EQ(reply.status, 403) << what << ": " << query;
    EXPECT_TRUE(IsErrorEnvelope(reply.body, 10052)) << what;
    EXPECT_EQ(reply.header("Content-Type"), "application/json") << what;
    const std::string named = error_detail_string(reply.body, "field").value_or("<none>");
    if (field.empty()) {
      EXPECT_TRUE(named == "d" || named == "exp" || named == "kid" || named == "sig") << what << ": " << reply.body;
    } else {
      EXPECT_EQ(named, field) << what << ": " << reply.body;
    }
  }

  StateDirWithKeys state_;
  std::unique_ptr<TempFile> catalog_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(VideoTag, EveryByteOfTheQueryChangedIs403_10052) {
  start();
  const std::string query = tag_query();
  ASSERT_FALSE(query.empty());
  TrackingClient client(*server_);
  ASSERT_EQ(fetch(client, query).status, 200) << "the tag as minted";
  for (size_t at = 0; at < query.size(); ++at) {
    std::string changed = query;
    // Flipping the lowest bit of a base64url character's value keeps it base64url, a digit a
    // digit and a lowercase hex digit a hex digit; '=' and '&' become a letter.
    const size_t value = kBase64UrlAlphabet.find(query[at]);
    changed[at] = value == std::string_view::npos ? 'x' : kBase64UrlAlphabet[value ^ 1];
    ExpectRefused(client, changed, "byte " + std::to_string(at) + " '" + query[at] + "' -> '" + changed[at] + "'");
    if (HasFailure()) return;
  }
  EXPECT_LE(client.connections_opened(), 1) << "a refused tag does not cost the connection";
}

TEST_F(VideoTag, MissingRepeatedOrNonCanonicalParameterIs403_10052) {
  start();
  const std::string query = tag_query();
  const auto parameters = parameters_of(query);
  ASSERT_EQ(parameters.size(), 4u) << query;
  TrackingClient client(*server_);
  ExpectRefused(client, "", "no query", "d");
  for (size_t i = 0; i < parameters.size(); ++i) {
    const std::string& name = parameters[i].first;
    auto without = parameters;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    ExpectRefused(client, query_of(without), name + " missing", name);
    ExpectRefused(client, query + "&" + name + "=" + parameters[i].second, name + " repeated, same value", name);
    ExpectRefused(client, name + "=" + parameters[i].second + "&" + query, name + " repeated before", name);
    auto empty = parameters;
    empty[i].second.clear();
    ExpectRefused(client, query_of(empty), name + " empty");
  }
  // exp and kid as the minting side writes them: no sign, no leading zero; sig in lowercase.
  for (size_t i : {size_t{1}, size_t{2}}) {
    for (std::string_view prefix : {"0", "+"}) {
      auto changed = parameters;
      changed[i].second = std::string(prefix) + changed[i].second;
      ExpectRefused(client, query_of(changed), parameters[i].first + " with a leading " + std::string(prefix),
                    parameters[i].first);
    }
  }
  auto upper = parameters;
  for (char& c : upper[3].second) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ExpectRefused(client, query_of(upper), "sig in uppercase", "sig");
  EXPECT_EQ(fetch(client, query).status, 200) << "the tag as minted";
}

TEST_F(VideoTag, AnUnknownParameterIsIgnored) {
  start();
  const std::string query = tag_query();
  TrackingClient client(*server_);
  for (const std::string& busted : {query + "&cb=12345", "cb=1&" + query}) {
    const HttpReply reply = fetch(client, busted);
    EXPECT_EQ(reply.status, 200) << busted;
    EXPECT_NE(reply.body.find("<Ad id=\"ad_4\""), std::string::npos) << reply.body;
  }
}

TEST_F(VideoTag, TagPastExpIs410_10053AndAChangedOneStill403) {
  start(TagAd::kServed, {"--vast-tag-ttl=1s"});
  const std::string query = tag_query();
  const auto parameters = parameters_of(query);
  ASSERT_EQ(parameters.size(), 4u) << query;
  const int64_t exp = std::stoll(parameters[1].second);
  EXPECT_LE(exp - wall_s(), 1) << "--vast-tag-ttl=1s";
  // Expired once the clock reaches exp: at most a second (time itself, and 1s is the least
  // --vast-tag-ttl: tags count whole seconds).
  sleep_until_wall_s(exp);
  TrackingClient client(*server_);
  const HttpReply reply = fetch(client, query);
  EXPECT_EQ(reply.status, 410);
  EXPECT_TRUE(IsErrorEnvelope(reply.body, 10053));
  EXPECT_EQ(error_detail_string(reply.body, "field"), "exp");
  EXPECT_EQ(reply.header("Cache-Control"), "no-store");
  // The signature is checked first: an expired tag that was changed says nothing of its age.
  auto changed = parameters;
  changed[1].second = std::to_string(exp + 3600);
  ExpectRefused(client, query_of(changed), "exp pushed back", "sig");
}

struct LeftCase {
  TagAd tag_ad;
  const char* name;
};

class VideoTagNoFill : public VideoTag, public ::testing::WithParamInterface<LeftCase> {};

TEST_P(VideoTagNoFill, TagOfAnAdNoLongerServedThereGetsTheEmptyDocumentWith200) {
  start();
  const std::string query = tag_query();
  ASSERT_NO_FATAL_FAILURE(stop());
  ASSERT_NO_FATAL_FAILURE(start(GetParam().tag_ad));
  TrackingClient client(*server_);
  const HttpReply reply = fetch(client, query);
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("Content-Type"), "application/xml");
  EXPECT_EQ(reply.header("Cache-Control"), "no-store");
  EXPECT_EQ(reply.body, kNoFill);
}

INSTANTIATE_TEST_SUITE_P(VideoAdLeft, VideoTagNoFill,
                         ::testing::Values(LeftCase{TagAd::kRemoved, "Removed"},
                                           LeftCase{TagAd::kNowNative, "NowNative"},
                                           LeftCase{TagAd::kFlightOver, "FlightOver"},
                                           LeftCase{TagAd::kLeftPlacement, "LeftPlacement"}),
                         [](const ::testing::TestParamInfo<LeftCase>& info) { return std::string(info.param.name); });

TEST_F(VideoTag, TagOutlivesARestartOnTheSameStateDir) {
  start();
  const std::string query = tag_query();
  ASSERT_NO_FATAL_FAILURE(stop());
  ASSERT_NO_FATAL_FAILURE(start());
  TrackingClient client(*server_);
  const HttpReply reply = fetch(client, query);
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.body.find("<Ad id=\"ad_4\""), std::string::npos) << reply.body;
}

TEST_F(VideoTag, TagOfAnotherStateDirsKeysIs403_10052) {
  start();
  const std::string query = tag_query();
  // The harness's private state directory: keys of its own, drawn at start.
  ServerProcess other(standard_flags({"--catalog=" + catalog_->path(), std::string("--base-url=") + kVideoBaseUrl}));
  ASSERT_TRUE(other.serving()) << other.start_error();
  TrackingClient client(other);
  ExpectRefused(client, query, "signed with other keys");
}

TEST_F(VideoTag, DocumentIsUncachedXmlOpenToEveryOrigin) {
  start();
  TrackingClient client(*server_);
  const HttpReply reply = fetch(client, tag_query());
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("Content-Type"), "application/xml");
  EXPECT_EQ(reply.header("Cache-Control"), "no-store");
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "*");
  EXPECT_TRUE(reply.body.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST xmlns=\"http://www.iab.com/VAST\" "
                                     "version=\"4.2\"><Ad id=\"ad_4\"")) << reply.body;
  const HttpReply refused = fetch(client, "d=x&exp=1&kid=1&sig=0");
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.header("Cache-Control"), "no-store");
  EXPECT_EQ(refused.header("Access-Control-Allow-Origin"), "*");
}

TEST_F(VideoTag, HeadIsAnsweredAsGetWithoutTheBody) {
  start();
  const std::string query = tag_query();
  TrackingClient client(*server_);
  for (const std::string& q : {query, std::string("d=x&exp=1&kid=1&sig=0")}) {
    const HttpReply get = fetch(client, q);
    const HttpReply head = fetch(client, q, "HEAD");
    EXPECT_EQ(head.status, get.status) << q;
    for (std::string_view name : {"Content-Type", "Content-Length", "Cache-Control", "Access-Control-Allow-Origin"}) {
      EXPECT_EQ(head.header(name), get.header(name)) << name << " of " << q;
    }
    EXPECT_EQ(get.header("Content-Length"), std::to_string(get.body.size()));
    EXPECT_TRUE(head.body.empty());
  }
  // Nothing of a body followed the HEAD replies: the connection still frames replies.
  EXPECT_EQ(fetch(client, query).status, 200);
  EXPECT_EQ(client.connections_opened(), 1);
}

TEST_F(VideoTag, EachFetchSealsFreshTokensForTheSameServedAd) {
  start();
  const std::string query = tag_query();
  TrackingClient client(*server_);
  const std::string first = fetch(client, query).body;
  const std::string second = fetch(client, query).body;
  EXPECT_EQ(golden_form(first), golden_form(second));
  EXPECT_EQ(ad_serving_id_of(first), ad_serving_id_of(second)) << "the same decision's served ad";
  const std::vector<DocumentUrl> a = tracking_urls_of(first), b = tracking_urls_of(second);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NE(a[i].token, b[i].token) << a[i].element;
}

}  // namespace
}  // namespace integration
