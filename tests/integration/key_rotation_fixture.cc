#include "tests/integration/key_rotation_fixture.h"

#include <csignal>
#include <optional>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/keys_tool.h"

namespace integration {

void KeyRotationFixture::start(const StateDir* node) {
  const std::string state_flag = (node != nullptr ? *node : state_).flag();
  server_ = std::make_unique<ServerProcess>(
      standard_flags({"--catalog=" + catalog_.path(), state_flag, std::string("--base-url=") + kVideoBaseUrl}));
  ASSERT_TRUE(server_->serving()) << server_->start_error();
  client_ = std::make_unique<TrackingClient>(*server_);
}

void KeyRotationFixture::stop() {
  client_.reset();
  server_->send_signal(SIGTERM);
  const std::optional<ExitStatus> exit = server_->wait_for_exit();
  ASSERT_TRUE(exit) << "still running after SIGTERM";
  EXPECT_EQ(exit->code, 0) << exit->describe();
  stderr_seen_ += server_->stderr_text();
  server_.reset();
}

void KeyRotationFixture::keys(const std::string& arguments) {
  const ToolRun run = run_keys_tool(state_.path(), arguments);
  EXPECT_EQ(run.status, 0) << "decisiond-keys " << arguments << ": " << run.out;
  tool_output_ += run.out;
}

Issued KeyRotationFixture::issue() {
  Issued issued;
  DecisionClient decisions(*server_);
  const CurlReply reply = decide_video(decisions, kVideoVersion);
  EXPECT_EQ(reply.status, 200) << reply.body;
  bodies_ += reply.body;
  for (const CreativeTokens& tokens : tokens_of(reply.body)) {
    if (tokens.ad_id == "ad_1") {
      issued.impression = tokens.impression;
      issued.click = tokens.click;
    }
  }
  const VideoDecision decision(reply.body);
  const std::optional<simdjson::dom::element> tag = decision.creative("ad_4");
  const std::string url = tag ? string_member((*tag)["vast"], "tagUrl").value_or("") : "";
  const std::string prefix = std::string(kVideoBaseUrl) + "/v1/vast?";
  if (url.starts_with(prefix)) issued.tag_query = url.substr(prefix.size());
  EXPECT_FALSE(issued.impression.empty() || issued.click.empty() || issued.tag_query.empty()) << reply.body;
  return issued;
}

HttpReply KeyRotationFixture::call(std::string_view target) {
  const std::optional<HttpReply> reply = client_->request("GET", target);
  if (!reply) {
    ADD_FAILURE() << target << ": " << client_->last_error();
    return {};
  }
  bodies_ += reply->raw;
  return *reply;
}

void KeyRotationFixture::ExpectAccepted(const Issued& issued, int sealing_id, const std::string& what) {
  EXPECT_EQ(track(issued.impression).status, 204) << what;
  const HttpReply click = track(issued.click);
  EXPECT_EQ(click.status, 302) << what << ": " << click.body;
  EXPECT_EQ(click.header("Location").value_or(""), "https://one.example.test/") << what;
  const HttpReply tag = fetch_tag(issued.tag_query);
  ASSERT_EQ(tag.status, 200) << what << ": " << tag.body;
  const std::vector<DocumentUrl> urls = tracking_urls_of(tag.body);
  ASSERT_FALSE(urls.empty()) << what << ": " << tag.body;
  for (const DocumentUrl& url : urls) {
    EXPECT_EQ(key_id_of_token(url.token), sealing_id) << what << ": " << url.element << " sealed at fetch time";
  }
}

void KeyRotationFixture::ExpectSealedWith(const Issued& issued, int id) {
  EXPECT_EQ(key_id_of_token(issued.impression), id);
  EXPECT_EQ(key_id_of_tag(issued.tag_query), id) << issued.tag_query;
  EXPECT_EQ(key_id_of_token(issued.click), id);
}

void KeyRotationFixture::ExpectRefusedAsRetired(const Issued& issued) {
  for (const std::string& token : {issued.impression, issued.click}) {
    const HttpReply refused = track(token);
    EXPECT_EQ(refused.status, 400) << refused.body;
    EXPECT_TRUE(IsErrorEnvelope(refused.body, 10050)) << refused.body;
  }
  const HttpReply tag = fetch_tag(issued.tag_query);
  EXPECT_EQ(tag.status, 403) << tag.body;
  EXPECT_TRUE(IsErrorEnvelope(tag.body, 10052)) << tag.body;
  EXPECT_EQ(error_detail_string(tag.body, "field"), "kid") << tag.body;
}

}  // namespace integration
