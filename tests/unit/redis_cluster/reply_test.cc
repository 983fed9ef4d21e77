// Replies parsed by hiredis's reader into the per-connection arena (redis_cluster/reply.h).
#include "redis_cluster/reply.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/support/allocation_count.h"

namespace redis_cluster {
namespace {

using Kind = Reply::Kind;

TEST(RespReader, ScalarsOfEveryKind) {
  RespReader reader;
  ASSERT_TRUE(reader.feed("+OK\r\n-ERR bad\r\n:-42\r\n$5\r\nhello\r\n$-1\r\n"));
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  EXPECT_EQ(reader.reply().kind(), Kind::kStatus);
  EXPECT_EQ(reader.reply().text(), "OK");
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  EXPECT_TRUE(reader.reply().is_error_starting("ERR "));
  EXPECT_EQ(reader.reply().text(), "ERR bad");
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  EXPECT_EQ(reader.reply().kind(), Kind::kInteger);
  EXPECT_EQ(reader.reply().integer(), -42);
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  EXPECT_EQ(reader.reply().kind(), Kind::kString);
  EXPECT_EQ(reader.reply().text(), "hello");
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  EXPECT_EQ(reader.reply().kind(), Kind::kNil);
  EXPECT_EQ(reader.next(), RespReader::Result::kNeedMore);
}

// [[1, [a, nil], []], "z", [-ERR x]]: children of each array stay in order whatever
// nesting sits between them.
constexpr std::string_view kNested =
    "*3\r\n*3\r\n:1\r\n*2\r\n$1\r\na\r\n$-1\r\n*0\r\n$1\r\nz\r\n*1\r\n-ERR x\r\n";

void expect_nested(const Reply& r) {
  ASSERT_EQ(r.kind(), Kind::kArray);
  ASSERT_EQ(r.size(), 3u);
  const Reply first = r.at(0);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first.at(0).integer(), 1);
  ASSERT_EQ(first.at(1).size(), 2u);
  EXPECT_EQ(first.at(1).at(0).text(), "a");
  EXPECT_EQ(first.at(1).at(1).kind(), Kind::kNil);
  EXPECT_EQ(first.at(2).kind(), Kind::kArray);
  EXPECT_EQ(first.at(2).size(), 0u);
  EXPECT_EQ(r.at(1).text(), "z");
  EXPECT_EQ(r.at(2).at(0).text(), "ERR x");
}

TEST(RespReader, NestedArraysKeepTheirShape) {
  RespReader reader;
  ASSERT_TRUE(reader.feed(kNested));
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  expect_nested(reader.reply());
}

TEST(RespReader, AReplySplitAcrossFeedsComesWhole) {
  RespReader reader;
  for (size_t i = 0; i < kNested.size(); ++i) {
    ASSERT_TRUE(reader.feed(kNested.substr(i, 1)));
    if (i + 1 < kNested.size()) ASSERT_EQ(reader.next(), RespReader::Result::kNeedMore) << i;
  }
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  expect_nested(reader.reply());
}

TEST(RespReader, AWarmReaderAllocatesNothingPerReply) {
  RespReader reader;
  for (int warm = 0; warm < 3; ++warm) {
    ASSERT_TRUE(reader.feed(kNested));
    ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  }
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(reader.feed(kNested));
      ASSERT_EQ(reader.next(), RespReader::Result::kReply);
    }
  });
  EXPECT_EQ(allocations, 0u);
  expect_nested(reader.reply());
}

TEST(RespReader, GarbageIsAProtocolError) {
  RespReader reader;
  ASSERT_TRUE(reader.feed("?what\r\n"));
  EXPECT_EQ(reader.next(), RespReader::Result::kProtocolError);
  EXPECT_FALSE(reader.error().empty());
}

TEST(RespReader, ResetForgetsAPartialReply) {
  RespReader reader;
  ASSERT_TRUE(reader.feed("*2\r\n:1\r\n"));
  EXPECT_EQ(reader.next(), RespReader::Result::kNeedMore);
  reader.reset();
  ASSERT_TRUE(reader.feed(":7\r\n"));
  ASSERT_EQ(reader.next(), RespReader::Result::kReply);
  EXPECT_EQ(reader.reply().integer(), 7);
}

}  // namespace
}  // namespace redis_cluster
