// Commands formatted as RESP arrays of bulk strings (redis_cluster/command.h), into a buffer
// that formatting again reuses.
#include "redis_cluster/command.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/allocation_count.h"

namespace redis_cluster {
namespace {

TEST(FormattedCommand, IsAnArrayOfBulkStrings) {
  const std::string_view args[] = {"SET", "key", "a value"};
  const FormattedCommand command(args);
  EXPECT_EQ(command.bytes(), "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$7\r\na value\r\n");
}

TEST(FormattedCommand, BinaryArgumentsAndEmptyOnesSurvive) {
  const std::string binary("a\0\r\nb", 5);
  const std::string_view args[] = {"FCALL", binary, ""};
  const FormattedCommand command(args);
  EXPECT_EQ(command.bytes(), std::string("*3\r\n$5\r\nFCALL\r\n$5\r\na\0\r\nb\r\n$0\r\n\r\n", 32));
}

TEST(FormattedCommand, ManyArgumentsAreFormattedToo) {
  std::vector<std::string_view> args(40, "x");
  args[0] = "MSET";
  const FormattedCommand command(args);
  EXPECT_TRUE(command.bytes().starts_with("*40\r\n$4\r\nMSET\r\n$1\r\nx\r\n"));
}

TEST(FormattedCommand, NoArgumentsIsEmpty) {
  const FormattedCommand command(std::span<const std::string_view>{});
  EXPECT_TRUE(command.empty());
}

TEST(FormattedCommand, FormattingAgainReplacesTheCommandAndReusesItsBuffer) {
  const std::string_view long_args[] = {"FCALL", "decisiond_impression", "2", "a fairly long key", "another key"};
  FormattedCommand command(long_args);
  const std::string_view short_args[] = {"HGETALL", "u:1"};
  const uint64_t allocations = decision::testing::allocations_while([&] { command.assign(short_args); });
  EXPECT_EQ(command.bytes(), "*2\r\n$7\r\nHGETALL\r\n$3\r\nu:1\r\n");
  EXPECT_EQ(allocations, 0u);
}

TEST(FormattedCommand, AReservedCommandFormatsWithoutAllocating) {
  FormattedCommand command;
  command.reserve(256);
  const std::string_view args[] = {"HGETALL", "a user's hash key of some length"};
  const uint64_t allocations = decision::testing::allocations_while([&] { command.assign(args); });
  EXPECT_EQ(command.bytes().size(), 4 + 13 + 5 + 32 + 2u);
  EXPECT_EQ(allocations, 0u);
}

TEST(FormattedCommand, LengthsOfSeveralDigitsAreWrittenWhole) {
  const std::string value(1234, 'v');
  const std::string_view args[] = {"SET", "k", value};
  const FormattedCommand command(args);
  EXPECT_TRUE(command.bytes().starts_with("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1234\r\nvvv"));
  EXPECT_EQ(command.bytes().size(), 4 + 9 + 7 + 7 + 1234 + 2u);
}

TEST(FormattedCommand, MovingHandsTheBytesOver) {
  const std::string_view args[] = {"PING"};
  FormattedCommand first(args);
  FormattedCommand second(std::move(first));
  EXPECT_TRUE(first.empty());
  EXPECT_EQ(second.bytes(), "*1\r\n$4\r\nPING\r\n");
}

}  // namespace
}  // namespace redis_cluster
