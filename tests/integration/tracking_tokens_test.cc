// What GET /v1/tracking makes of a token (docs/tracking.md): any change to it, a bit of its
// bytes or a character of its text, is 400 10050 and logs nothing; a token sealed with keys
// the server does not hold is 400 10050; an expired one is 410 10051; t missing or repeated
// is 10050. Hundreds of tampered tokens go over one kept-alive connection.
#include <memory>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/wall_clock.h"

namespace integration {
namespace {

tracking::TrackingEvent impression_event(int64_t issued_s, int64_t expires_s) {
  tracking::TrackingEvent event;
  event.kind = tracking::EventKind::kImpression;
  event.ad_id = 3;
  event.creative_id = 30;
  event.placement_id = 7;
  event.issued_at_s = issued_s;
  event.expires_at_s = expires_s;
  return event;
}

class TrackingTokens : public ::testing::Test {
 protected:
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=50ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  CreativeTokens creative_of(const std::string& ad, std::string_view user = "") {
    const CurlReply reply = decide(*server_, user, 3);
    EXPECT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id == ad) return c;
    }
    ADD_FAILURE() << ad << " not served: " << reply.body;
    return {};
  }
  // Sends token and expects 400 10050 with the envelope.
  void expect_refused(TrackingClient& client, const std::string& token, const std::string& what) {
    const std::optional<HttpReply> reply = client.get(token);
    ASSERT_TRUE(reply) << what << ": " << client.last_error();
    EXPECT_EQ(reply->status, 400) << what << " (" << token << ")";
    EXPECT_EQ(error_code_of(reply->body), 10050) << what << ": " << reply->body;
    EXPECT_FALSE(reply->header("Location")) << what;
  }
  // Every tracking line of the calls answered so far; none expected from refused calls.
  std::vector<EventLine> tracking_lines_logged() {
    EXPECT_TRUE(wait_until_logged(*server_));
    std::vector<EventLine> out;
    for (EventLine& l : read_event_lines(state_.path())) {
      if (l.kind != "decision") out.push_back(std::move(l));
    }
    return out;
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(TrackingTokens, EveryFlippedBitOfAnImpressionTokenIs10050AndLogsNothing) {
  start();
  const std::string token = creative_of("ad_1", "flip-user").impression;
  const std::string bytes = token_bytes(token);
  ASSERT_FALSE(bytes.empty()) << token;
  TrackingClient client(*server_);
  for (size_t byte = 0; byte < bytes.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[byte] = static_cast<char>(flipped[byte] ^ (1 << bit));
      expect_refused(client, token_text(flipped), "byte " + std::to_string(byte) + " bit " + std::to_string(bit));
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_LE(client.connections_opened(), 1) << "a refused token does not cost the connection";
  EXPECT_TRUE(tracking_lines_logged().empty());
  // The untouched token still counts, once: none of the tampered ones took its place.
  const std::optional<HttpReply> reply = client.get(token);
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 204);
  const std::vector<EventLine> lines = wait_for_event_lines(
      state_.path(), [](const std::vector<EventLine>& l) { return count_kind(l, "impression") >= 1; });
  EXPECT_EQ(count_impressions(lines, false), 1u);
}

TEST_F(TrackingTokens, EveryCharacterOfTheTokenTextChangedIs10050) {
  start();
  const CreativeTokens c = creative_of("ad_1", "text-user");
  TrackingClient client(*server_);
  for (const std::string& token : {c.impression, c.click}) {
    for (size_t at = 0; at < token.size(); ++at) {
      const size_t value = kBase64UrlAlphabet.find(token[at]);
      ASSERT_NE(value, std::string_view::npos) << "not base64url: " << token;
      // The lowest bit of the character (in the last character, possibly an unused bit the
      // decoder must refuse) and its highest.
      for (size_t change : {size_t{1}, size_t{32}}) {
        std::string changed = token;
        changed[at] = kBase64UrlAlphabet[value ^ change];
        expect_refused(client, changed, "character " + std::to_string(at) + " xor " + std::to_string(change));
        if (HasFatalFailure()) return;
      }
    }
    // Outside the alphabet, shortened, lengthened, padded.
    expect_refused(client, token.substr(0, token.size() - 1), "last character removed");
    expect_refused(client, token + "A", "a character added");
    expect_refused(client, token + "AAAA", "four characters added");
    expect_refused(client, token + "==", "padding");
    expect_refused(client, "+" + token.substr(1), "'+' in place of the first character");
  }
  EXPECT_TRUE(tracking_lines_logged().empty());
}

TEST_F(TrackingTokens, MissingRepeatedOrEmptyTIs10050) {
  start();
  const std::string token = creative_of("ad_3").impression;
  const std::string other = creative_of("ad_3").impression;
  TrackingClient client(*server_);
  for (const std::string& target :
       {std::string("/v1/tracking"), std::string("/v1/tracking?"), std::string("/v1/tracking?t="),
        std::string("/v1/tracking?t"), std::string("/v1/tracking?token=") + token, std::string("/v1/tracking?T=") + token,
        "/v1/tracking?t=" + token + "&t=" + token, "/v1/tracking?t=" + token + "&t=" + other,
        "/v1/tracking?t=" + token + "&x=1&t="}) {
    const std::optional<HttpReply> reply = client.request("GET", target);
    ASSERT_TRUE(reply) << target << ": " << client.last_error();
    EXPECT_EQ(reply->status, 400) << target;
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10050)) << target;
  }
  EXPECT_TRUE(tracking_lines_logged().empty()) << "no call with a doubtful t was accepted";
}

TEST_F(TrackingTokens, TokenSealedWithKeysTheServerDoesNotHoldIs10050) {
  // First the server holds the test's keys: the sealed token is good.
  start();
  const std::string sealed = state_.Seal(impression_event(wall_s(), wall_s() + 600));
  TrackingClient client(*server_);
  const std::optional<HttpReply> accepted = client.get(sealed);
  ASSERT_TRUE(accepted) << client.last_error();
  EXPECT_EQ(accepted->status, 204) << "a token of the server's own keys is accepted";
  // Then a server with keys of its own (a fresh state dir): the same token is refused.
  StateDir other_state;
  server_ = std::make_unique<ServerProcess>(standard_flags({"--catalog=" + catalog_.path(), other_state.flag()}));
  ASSERT_TRUE(server_->serving()) << server_->start_error();
  TrackingClient other(*server_);
  const std::optional<HttpReply> refused = other.get(sealed);
  ASSERT_TRUE(refused) << other.last_error();
  EXPECT_EQ(refused->status, 400);
  EXPECT_TRUE(IsErrorEnvelope(refused->body, 10050));
  // And a token that server sealed itself goes through, so the refusal was about the keys.
  const CurlReply decision = decide(*server_, "", 1);
  ASSERT_EQ(decision.status, 200) << decision.body;
  const std::vector<CreativeTokens> own = tokens_of(decision.body);
  ASSERT_FALSE(own.empty());
  const std::optional<HttpReply> own_reply = other.get(own[0].impression);
  ASSERT_TRUE(own_reply);
  EXPECT_EQ(own_reply->status, 204);
}

TEST_F(TrackingTokens, ExpiredTokenIs410With10051AndCountsNothing) {
  start({"--tracking-ttl=1s"});
  const CreativeTokens c = creative_of("ad_1", "expiring-user");
  CreativeTokens three = creative_of("ad_3", "expiring-user");
  sleep_until_sealed_ones_expire(1);  // --tracking-ttl has no shorter setting: tokens count whole seconds
  TrackingClient client(*server_);
  for (const std::string& token : {c.impression, c.click, three.custom["add_to_cart"]}) {
    const std::optional<HttpReply> reply = client.get(token, "X-Tracking-Version: 2025-11-01\r\n");
    ASSERT_TRUE(reply) << client.last_error();
    EXPECT_EQ(reply->status, 410);
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10051));
    EXPECT_FALSE(reply->header("Location")) << "an expired click does not redirect";
    EXPECT_EQ(reply->header("X-Tracking-Version").value_or("<none>"), "2025-11-01");
  }
  EXPECT_TRUE(tracking_lines_logged().empty());
  // The expired impression did not count: ad_1 (two an hour) is still served to the user.
  EXPECT_FALSE(creative_of("ad_1", "expiring-user").impression.empty());
  const std::string page = scrape_metrics(*server_);
  EXPECT_EQ(sum_samples(page, "decisiond_tracking_expired_tokens_total", {}).value_or(-1), 3.0) << page;
}

TEST_F(TrackingTokens, TokenPastItsExpirySealedByTheKeysIs410AndOneStillValidIs204) {
  start();
  TrackingClient client(*server_);
  const int64_t now = wall_s();
  const std::optional<HttpReply> expired = client.get(state_.Seal(impression_event(now - 100, now - 1)));
  ASSERT_TRUE(expired) << client.last_error();
  EXPECT_EQ(expired->status, 410);
  EXPECT_TRUE(IsErrorEnvelope(expired->body, 10051));
  const std::optional<HttpReply> valid = client.get(state_.Seal(impression_event(now - 100, now + 100)));
  ASSERT_TRUE(valid);
  EXPECT_EQ(valid->status, 204);
}

}  // namespace
}  // namespace integration
