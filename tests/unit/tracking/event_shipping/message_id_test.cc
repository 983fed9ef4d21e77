// Subjects and message ids of shipped lines (tracking/event_shipping/message_id.h).
#include "tracking/event_shipping/message_id.h"

#include "gtest/gtest.h"

namespace tracking::event_shipping {
namespace {

TEST(MessageId, IsNodeCoreAndTheRunsFirstAndLastSeq) {
  std::string id = "left over";
  format_message_id("node-a", 3, 7, 18446744073709551615ull, id);
  EXPECT_EQ(id, "node-a:3:7-18446744073709551615");
  format_message_id("node-a", 0, 42, 42, id);
  EXPECT_EQ(id, "node-a:0:42-42");
  EXPECT_EQ(ship_subject("node-a"), "decisiond.events.node-a");
}

TEST(MessageId, ReadsBackThisNodesIdsOnly) {
  EXPECT_EQ(parse_message_id("node-a:3:42-50", "node-a"), (RunId{3, 42, 50}));
  EXPECT_EQ(parse_message_id("host:8080:1:7-7", "host:8080"), (RunId{1, 7, 7}));
  for (const char* other : {"node-b:3:42-43", "node-a2:3:42-43", "node-a:3", "node-a::42-43", "node-a:3:", "node-a:x:1-2",
                            "node-a:1:2:3", "", "node-a", "node-a:3:42-", "node-a:3:-42", "node-a:3:50-42",
                            "node-a:3:42-43-44", "node-a:3:42-x"}) {
    EXPECT_FALSE(parse_message_id(other, "node-a")) << other;
  }
}

TEST(MessageId, AnIdOfOneLineFromBeforeRunsIsARunOfThatLine) {
  EXPECT_EQ(parse_message_id("node-a:3:42", "node-a"), (RunId{3, 42, 42}));
}

TEST(MessageId, AnyNodesIdNamesItsNodeWithItsColons) {
  const std::optional<NodeRunId> id = parse_any_message_id("host:8080:1:7-9");
  ASSERT_TRUE(id);
  EXPECT_EQ(id->node_id, "host:8080");
  EXPECT_EQ(id->run, (RunId{1, 7, 9}));
  const std::optional<NodeRunId> old = parse_any_message_id("node0:2:5");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->node_id, "node0");
  EXPECT_EQ(old->run, (RunId{2, 5, 5}));
  for (const char* bad : {"", ":1:2", "node", "node:1", "node:x:1", ":1", "node:1:9-2"}) {
    EXPECT_FALSE(parse_any_message_id(bad)) << bad;
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
