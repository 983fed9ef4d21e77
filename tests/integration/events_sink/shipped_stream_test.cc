// The comparison the shipping tests rest on (shipped_stream.h), on messages made here: it
// reads each message as the run its id names, line by line, whatever the node id holds.
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/events_sink/shipped_stream.h"

namespace integration {
namespace {

std::string line(uint64_t seq) { return "{\"seq\":" + std::to_string(seq) + ",\"time_ms\":1,\"kind\":\"decision\"}"; }

StoredMessage message(const std::string& node_id, const std::string& data, const std::string& msg_id) {
  return {.sequence = 0, .subject = "decisiond.events." + node_id, .data = data, .msg_id = msg_id};
}

// Core 0 of node "host:8080": seqs 0 to 4.
std::map<std::string, std::string> logged() {
  std::map<std::string, std::string> lines;
  for (uint64_t seq = 0; seq < 5; ++seq) lines["host:8080:0:" + std::to_string(seq)] = line(seq);
  return lines;
}

std::string failure_of(const ::testing::AssertionResult& result) {
  EXPECT_FALSE(result);
  return result.message();
}

TEST(ShippedStream, RunsAndOneLineMessagesOfBeforeRunsHoldEachLineOnce) {
  const std::vector<StoredMessage> stream = {message("host:8080", line(0), "host:8080:0:0"),
                                             message("host:8080", line(1) + "\n" + line(2), "host:8080:0:1-2"),
                                             message("host:8080", line(3) + "\n" + line(4), "host:8080:0:3-4")};
  EXPECT_TRUE(StreamHoldsEachLineOnce(stream, logged()));
}

TEST(ShippedStream, ALineInTwoRunsIsTwiceAndALineInNoneIsMissing) {
  const std::vector<StoredMessage> stream = {message("host:8080", line(0) + "\n" + line(1), "host:8080:0:0-1"),
                                             message("host:8080", line(1) + "\n" + line(2), "host:8080:0:1-2")};
  const std::string failure = failure_of(StreamHoldsEachLineOnce(stream, logged()));
  EXPECT_NE(failure.find("2 missing, 1 twice, 0 not logged, 0 altered, 0 misnamed"), std::string::npos) << failure;
  EXPECT_NE(failure.find("twice: host:8080:0:1"), std::string::npos) << failure;
}

TEST(ShippedStream, ARunWhoseEndsAreNotItsIdsIsMisnamed) {
  const std::vector<StoredMessage> stream = {message("host:8080", line(0) + "\n" + line(1), "host:8080:0:0-2"),
                                             message("host:8080", line(2) + "\n" + line(3) + "\n" + line(4),
                                                     "host:8080:0:3-4")};
  const std::string failure = failure_of(StreamHoldsEachLineOnce(stream, logged()));
  EXPECT_NE(failure.find("0 missing, 0 twice, 0 not logged, 0 altered, 2 misnamed"), std::string::npos) << failure;
  EXPECT_NE(failure.find("misnamed: host:8080:0:0-2 holds seq 1 as line 1"), std::string::npos) << failure;
  EXPECT_NE(failure.find("misnamed: host:8080:0:3-4 holds seq 2 as line 0"), std::string::npos) << failure;
}

TEST(ShippedStream, ALineFeedAfterTheLastLineOrOtherBytesAreAltered) {
  std::string changed = line(1);
  changed.replace(changed.find("decision"), 8, "decisioN");
  const std::vector<StoredMessage> stream = {message("host:8080", line(0) + "\n" + changed, "host:8080:0:0-1"),
                                             message("host:8080", line(2) + "\n", "host:8080:0:2"),
                                             message("host:8080", line(3) + "\n" + line(4), "host:8080:0:3-4")};
  const std::string failure = failure_of(StreamHoldsEachLineOnce(stream, logged()));
  EXPECT_NE(failure.find("2 altered"), std::string::npos) << failure;
  EXPECT_NE(failure.find("altered: host:8080:0:1"), std::string::npos) << failure;
  EXPECT_NE(failure.find("altered: host:8080:0:2 line 1: "), std::string::npos) << failure;
}

TEST(ShippedStream, AnotherNodesSubjectOrAnIdThatNamesNoRunIsMisnamed) {
  std::vector<StoredMessage> stream = {message("host:8080", line(0) + "\n" + line(1), "host:8080:0:0-1"),
                                       message("host:8080", line(2) + "\n" + line(3) + "\n" + line(4), "host:8080:0:2-4")};
  stream[0].subject = "decisiond.events.host";
  stream.push_back(message("host:8080", line(4), "host:8080:0:4-3"));
  const std::string failure = failure_of(StreamHoldsEachLineOnce(stream, logged()));
  EXPECT_NE(failure.find("2 misnamed"), std::string::npos) << failure;
  EXPECT_NE(failure.find("misnamed: host:8080:0:0-1 on subject decisiond.events.host"), std::string::npos) << failure;
  EXPECT_NE(failure.find("misnamed: host:8080:0:4-3 holding "), std::string::npos) << failure;
}

TEST(ShippedStream, ALineOfAnotherCoreOrNodeIsNotLogged) {
  const std::vector<StoredMessage> stream = {message("host:8080", line(0) + "\n" + line(1), "host:8080:0:0-1"),
                                             message("host:8080", line(2) + "\n" + line(3) + "\n" + line(4), "host:8080:0:2-4"),
                                             message("host:8080", line(0), "host:8080:1:0"),
                                             message("host", line(0), "host:0:0")};
  const std::string failure = failure_of(StreamHoldsEachLineOnce(stream, logged()));
  EXPECT_NE(failure.find("0 missing, 0 twice, 2 not logged"), std::string::npos) << failure;
  EXPECT_NE(failure.find("not logged: host:8080:1:0"), std::string::npos) << failure;
  EXPECT_NE(failure.find("not logged: host:0:0"), std::string::npos) << failure;
}

}  // namespace
}  // namespace integration
