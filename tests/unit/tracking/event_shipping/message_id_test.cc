// Subjects and message ids of shipped lines (tracking/event_shipping/message_id.h).
#include "tracking/event_shipping/message_id.h"

#include "gtest/gtest.h"

namespace tracking::event_shipping {
namespace {

TEST(MessageId, IsNodeCoreAndSeq) {
  std::string id = "left over";
  format_message_id("node-a", 3, 18446744073709551615ull, id);
  EXPECT_EQ(id, "node-a:3:18446744073709551615");
  EXPECT_EQ(ship_subject("node-a"), "decisiond.events.node-a");
}

TEST(MessageId, ReadsBackThisNodesIdsOnly) {
  const std::optional<LineId> id = parse_message_id("node-a:3:42", "node-a");
  ASSERT_TRUE(id);
  EXPECT_EQ(id->core, 3u);
  EXPECT_EQ(id->seq, 42u);
  const std::optional<LineId> with_colons = parse_message_id("host:8080:1:7", "host:8080");
  ASSERT_TRUE(with_colons);
  EXPECT_EQ(with_colons->seq, 7u);
  for (const char* other : {"node-b:3:42", "node-a2:3:42", "node-a:3", "node-a::42", "node-a:3:", "node-a:x:1",
                            "node-a:1:2:3", "", "node-a"}) {
    EXPECT_FALSE(parse_message_id(other, "node-a")) << other;
  }
}

TEST(MessageId, ANodeIdMustEndASubject) {
  for (const char* good : {"node0", "web-1.example.com", "host_2", "host:8080"}) {
    EXPECT_TRUE(check_subject_node_id(good).ok()) << good;
  }
  for (const char* bad : {"", "node*", "node>", "two words", ".node", "node.", "a..b", "tab\there"}) {
    EXPECT_FALSE(check_subject_node_id(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace tracking::event_shipping
