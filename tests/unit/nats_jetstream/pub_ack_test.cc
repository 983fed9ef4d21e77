// JetStream publish acknowledgements read by hand (nats_jetstream/pub_ack.h).
#include "nats_jetstream/pub_ack.h"

#include "gtest/gtest.h"

namespace nats_jetstream {
namespace {

TEST(PubAck, AStoredMessageGivesItsStreamSequence) {
  const std::optional<PubAck> ack = parse_pub_ack(R"({"stream":"decisiond-events", "seq":1207})");
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->stream_seq, 1207u);
  EXPECT_FALSE(ack->duplicate);
  EXPECT_TRUE(ack->error.empty());
}

TEST(PubAck, ADuplicateSaysSo) {
  const std::optional<PubAck> ack = parse_pub_ack(R"({"stream":"s","seq":5,"duplicate":true})");
  ASSERT_TRUE(ack);
  EXPECT_TRUE(ack->duplicate);
  EXPECT_EQ(ack->stream_seq, 5u);
}

TEST(PubAck, AnErrorGivesItsDescription) {
  const std::optional<PubAck> ack =
      parse_pub_ack(R"({"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"},"stream":"s"})");
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->error, "maximum messages exceeded");
}

TEST(PubAck, AnythingElseIsNotOne) {
  for (const char* body : {"", "{}", R"({"stream":"s"})", R"({"seq":})", R"({"seq":123456789012345678901})"}) {
    EXPECT_FALSE(parse_pub_ack(body)) << body;
  }
}

}  // namespace
}  // namespace nats_jetstream
