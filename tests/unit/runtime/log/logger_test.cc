#include "runtime/log/logger.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/log/core_lines.h"
#include "runtime/log/line_output.h"
#include "runtime/log/repeat_limit.h"
#include "runtime/log/writer_thread.h"

namespace runtime::log {
namespace {

constexpr Logger kLog("test");

int64_t fake_now_ms = 0;
int64_t fake_now() { return fake_now_ms; }

// The process's one output, pointed at a pipe for each test, with a clock the test steps.
class LoggerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::pipe2(fds_, O_CLOEXEC | O_NONBLOCK), 0);
    fake_now_ms = 1'763'683'200'000;
    LineOutput::instance().write_to(fds_[1]);
    LineOutput::instance().use_clock(&fake_now);
    set_level(Level::kInfo);
  }
  void TearDown() override {
    LineOutput::instance().finish();  // no window left open for the next test
    LineOutput::instance().write_to(2);
    LineOutput::instance().use_clock(nullptr);
    ::close(fds_[0]);
    ::close(fds_[1]);
  }

  // The lines written since the last call.
  std::vector<std::string> written() {
    char chunk[65536];
    for (ssize_t n; (n = ::read(fds_[0], chunk, sizeof chunk)) > 0;) pending_.append(chunk, static_cast<size_t>(n));
    std::vector<std::string> lines;
    for (size_t end; (end = pending_.find('\n')) != std::string::npos;) {
      lines.push_back(pending_.substr(0, end));
      pending_.erase(0, end + 1);
    }
    return lines;
  }

  int fds_[2] = {-1, -1};
  std::string pending_;
};

TEST_F(LoggerTest, LinesBelowTheLevelInForceAreNotWritten) {
  set_level(Level::kWarn);
  kLog.debug("not at warn");
  kLog.info("not at warn either");
  kLog.warn("at warn");
  kLog.error("above warn");
  std::vector<std::string> lines = written();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find(" level=warn component=test msg=\"at warn\""), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(" level=error component=test msg=\"above warn\""), std::string::npos) << lines[1];

  set_level(Level::kDebug);
  kLog.debug("now at debug");
  lines = written();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" level=debug "), std::string::npos) << lines[0];
}

TEST_F(LoggerTest, ALineOnAThreadThatIsNotAReactorsIsWrittenBeforeTheCallReturns) {
  kLog.info("open files limit %d", 1024);
  const std::vector<std::string> lines = written();
  ASSERT_EQ(lines.size(), 1u);
  static const std::regex kLine(
      R"(ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=info component=test msg="open files limit 1024")");
  EXPECT_TRUE(std::regex_match(lines[0], kLine)) << lines[0];
}

TEST_F(LoggerTest, AReactorsLineWaitsInItsQueueForTheWriter) {
  CoreLogScope scope(3);
  kLog.warn("redis %s: connection lost", "10.0.0.7:6379");
  EXPECT_TRUE(written().empty()) << "the core wrote its own line";
  LineOutput::instance().drain();
  const std::vector<std::string> lines = written();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" level=warn component=test core=3 msg=\"redis 10.0.0.7:6379: connection lost\""),
            std::string::npos)
      << lines[0];
}

TEST_F(LoggerTest, ALineSaidElsewhereComesAfterWhatTheCoresQueuedBeforeIt) {
  std::thread core([] {
    CoreLogScope scope(1);
    kLog.info("said on the core first");
  });
  core.join();
  kLog.info("said on the main thread after");
  const std::vector<std::string> lines = written();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("said on the core first"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("said on the main thread after"), std::string::npos) << lines[1];
}

TEST_F(LoggerTest, AFullCoreQueueDropsTheLinesAndCountsThem) {
  CoreLogScope scope(9);
  const CoreLines& lines = *this_thread_lines();
  const uint64_t before = lines.counters().dropped.get();
  for (uint32_t i = 0; i < kQueuedLinesPerCore + 5; ++i) kLog.info("line %u while nobody writes", i);
  EXPECT_EQ(lines.counters().dropped.get() - before, 5u);
  LineOutput::instance().drain();
  kLog.info("room again %d", 1);
  EXPECT_EQ(lines.counters().dropped.get() - before, 5u);
}

TEST_F(LoggerTest, LinesThatRepeatAreHeldBackThenSummedUpWhenTheirWindowEnds) {
  const uint64_t held_before = LineOutput::instance().counters().held_back.get();
  for (uint32_t i = 0; i < kLinesPerWindow + 5; ++i) kLog.warn("retry %u failed", i);
  kLog.warn("another template %d", 1);
  std::vector<std::string> lines = written();
  EXPECT_EQ(lines.size(), kLinesPerWindow + 1);
  EXPECT_EQ(LineOutput::instance().counters().held_back.get() - held_before, 5u);

  fake_now_ms += kRepeatWindowMs;
  LineOutput::instance().drain();
  lines = written();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" level=warn component=test suppressed=5 msg=\"5 similar lines suppressed; the last: "
                          "retry 14 failed\""),
            std::string::npos)
      << lines[0];
  kLog.warn("retry %u failed", 15u);
  EXPECT_EQ(written().size(), 1u) << "a new window writes again";
}

TEST_F(LoggerTest, QuotesAndNewlinesInAMessageStayInsideItsOneLine) {
  kLog.error("catalog %s refused with %d error(s):%s", "/etc/catalog.json", 2,
             "\n  ads[0].name: \"x\" is taken\n  ads[1].weight: must be > 0");
  char all[4096];
  const ssize_t n = ::read(fds_[0], all, sizeof all);
  ASSERT_GT(n, 0);
  const std::string text(all, static_cast<size_t>(n));
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
  EXPECT_NE(text.find(R"(msg="catalog /etc/catalog.json refused with 2 error(s):\n  ads[0].name: \"x\" is taken\n  )"
                      R"(ads[1].weight: must be > 0")"),
            std::string::npos)
      << text;
}

TEST_F(LoggerTest, ALongLineOnAReactorIsCutAndSaysHowLongItWas) {
  CoreLogScope scope(4);
  const std::string long_text(2000, 'a');
  kLog.info("%s", long_text.c_str());
  LineOutput::instance().drain();
  const std::vector<std::string> lines = written();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" core=4 cut=2000 msg="), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find(long_text), std::string::npos);
}

TEST_F(LoggerTest, ALongLineElsewhereIsWrittenWhole) {
  const std::string long_text(5000, 'b');
  kLog.info("%s", long_text.c_str());
  const std::vector<std::string> lines = written();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("msg=" + long_text), std::string::npos);
}

TEST_F(LoggerTest, TheWriterThreadWritesAReactorsLineWithoutBeingAsked) {
  LineOutput::instance().use_clock(nullptr);
  start_writer();
  {
    CoreLogScope scope(6);
    kLog.info("taken by the writer");
  }
  std::vector<std::string> lines;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (lines.empty() && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fds_[0], POLLIN, 0};
    ::poll(&p, 1, 100);
    lines = written();
  }
  finish_logging();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" core=6 msg=\"taken by the writer\""), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace runtime::log
