// The access log (docs/access-log.md): the line format, the sample, and the writer on a
// real ring (runtime::LineLog).
#include "service/access_log/access_log.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "http/error_body.h"
#include "http/request_observer.h"
#include "service/access_log/access_line.h"
#include "tests/unit/tracking/events/reactor_loop.h"
#include "tests/unit/tracking/test_keys.h"

namespace service::access_log {
namespace {

AccessRecord record() {
  AccessRecord r;
  r.time_ms = 1'795'535'035'480;
  r.core = 1;
  r.listener = "public";
  r.route = "tracking";
  r.method = "GET";
  r.path = "/v1/tracking";
  r.status = 400;
  r.code = 10050;
  r.request_bytes = 312;
  r.reply_bytes = 416;
  r.duration_us = 27;
  r.user_agent = "Mozilla/5.0 X11";
  return r;
}

TEST(AccessLine, MembersInTheirDocumentedOrder) {
  std::string out;
  append_access_line(record(), out);
  EXPECT_EQ(out,
            R"({"time_ms":1795535035480,"core":1,"listener":"public","route":"tracking","method":"GET",)"
            R"("path":"/v1/tracking","status":400,"code":10050,"request_bytes":312,"reply_bytes":416,)"
            R"("duration_us":27,"user_agent":"Mozilla/5.0 X11"})");
}

TEST(AccessLine, NoCodeWithoutAnErrorAndNoUserAgentWhenNoneWasSent) {
  AccessRecord r = record();
  r.status = 204;
  r.code = 0;
  r.user_agent = {};
  std::string out;
  append_access_line(r, out);
  EXPECT_EQ(out.find("\"code\""), std::string::npos);
  EXPECT_EQ(out.find("user_agent"), std::string::npos);
}

TEST(AccessLine, AnUnreadRequestHasNoMethodNorPath) {
  AccessRecord r = record();
  r.method = {};
  r.route = "unmatched";
  std::string out;
  append_access_line(r, out);
  EXPECT_EQ(out.find("\"method\""), std::string::npos);
  EXPECT_EQ(out.find("\"path\""), std::string::npos);
}

TEST(AccessLine, ClientTextIsEscapedAndLongTextCutAtACharacterBoundary) {
  AccessRecord r = record();
  const std::string long_path = "/" + std::string(kMaxPathBytes - 2, 'a') + "\xc3\xa9" + "tail";
  r.path = long_path;
  r.user_agent = "quote\" back\\ nl\n";
  std::string out;
  append_access_line(r, out);
  EXPECT_NE(out.find(R"("user_agent":"quote\" back\\ nl\n")"), std::string::npos) << out;
  // The two-byte character straddles the bound: cut before it, never inside it.
  EXPECT_NE(out.find("\"path\":\"/" + std::string(kMaxPathBytes - 2, 'a') + "\""), std::string::npos) << out;
  EXPECT_NE(out.find(",\"truncated\":true}"), std::string::npos) << out;
  EXPECT_EQ(out.find('\n'), std::string::npos);
}

TEST(AccessLine, ErrorCodeIsTheEnvelopesFirstCode) {
  http::Response response;
  http::set_error(response, 410, 10051, "expired");
  EXPECT_EQ(error_code_of(response.body()), 10051);
  EXPECT_EQ(error_code_of(R"({"success":true,"data":{}})"), 0);
  EXPECT_EQ(error_code_of("not json"), 0);
}

TEST(AccessLine, RecordOfACompletedRequestTakesThePathWithoutTheQuery) {
  http::Request request;
  request.method = http::Method::kGet;
  request.method_text = "GET";
  request.target = "/v1/tracking?t=SECRET";
  request.path = "/v1/tracking";
  request.query = "t=SECRET";
  request.headers[0] = {"User-Agent", "player/2"};
  request.header_count = 1;
  http::Response reply;
  reply.set_status(204);
  http::CompletedRequest completed;
  completed.request = &request;
  completed.route = "tracking";
  completed.reply = &reply;
  completed.status = 204;
  completed.request_bytes = 120;
  completed.reply_bytes = 80;
  completed.latency_ns = 12'999;
  std::string out;
  append_access_line(access_record(completed, 5, 0, "public"), out);
  EXPECT_EQ(out,
            R"({"time_ms":5,"core":0,"listener":"public","route":"tracking","method":"GET","path":"/v1/tracking",)"
            R"("status":204,"request_bytes":120,"reply_bytes":80,"duration_us":12,"user_agent":"player/2"})");
  EXPECT_EQ(out.find("SECRET"), std::string::npos);
}

TEST(AccessLine, TheClientsAddressFollowsTheUserAgentWhenKnown) {
  AccessRecord r = record();
  r.client = *runtime::IpAddress::parse("2a02:cfc0::1");
  std::string out;
  append_access_line(r, out);
  EXPECT_NE(out.find(R"("user_agent":"Mozilla/5.0 X11","client":"2a02:cfc0::1")"), std::string::npos) << out;
  r.client = *runtime::IpAddress::parse("::ffff:89.160.20.112");
  out.clear();
  append_access_line(r, out);
  EXPECT_NE(out.find(R"("client":"89.160.20.112")"), std::string::npos) << out;
  r.client = {};
  out.clear();
  append_access_line(r, out);
  EXPECT_EQ(out.find("client"), std::string::npos) << out;
  http::CompletedRequest unread;
  unread.client_address = *runtime::IpAddress::parse("216.160.83.56");
  EXPECT_EQ(access_record(unread, 1, 0, "tls").client, unread.client_address) << "an unread request's connection";
}

int taken(double fraction, int requests) {
  http::RequestSampler sampler(fraction);
  int n = 0;
  for (int i = 0; i < requests; ++i) n += sampler.take() ? 1 : 0;
  return n;
}

TEST(RequestSampler, TakesTheFractionAskedDeterministically) {
  EXPECT_EQ(taken(0, 10'000), 0);
  EXPECT_EQ(taken(1, 10'000), 10'000);
  EXPECT_EQ(taken(0.5, 10'000), 5'000);
  // 0.01 is not a multiple of 2^-32: at most one request short.
  EXPECT_NEAR(taken(0.01, 100'000), 1'000, 1);
  EXPECT_NEAR(taken(0.3, 10'000), 3'000, 1);
}

TEST(RequestSampler, AQuarterTakesEveryFourthRequest) {
  http::RequestSampler sampler(0.25);
  std::vector<int> picked;
  for (int i = 1; i <= 12; ++i) {
    if (sampler.take()) picked.push_back(i);
  }
  EXPECT_EQ(picked, (std::vector<int>{4, 8, 12}));
}

class AccessLogWriter : public ::testing::Test {
 protected:
  AccessLogSettings settings(double sample) {
    AccessLogSettings s;
    s.sample = sample;
    s.directory = core_directory(directory_.path(), 0);
    s.flush_interval_ms = 20;
    s.file_bytes = 4096;
    return s;
  }
  void close_and_wait(AccessLog& log) {
    bool closed = false;
    log.close([&] { closed = true; });
    ASSERT_TRUE(loop_.run_until([&] { return closed; }));
  }
  std::vector<std::string> lines() {
    std::vector<std::filesystem::path> files;
    for (const auto& f : std::filesystem::directory_iterator(core_directory(directory_.path(), 0))) {
      files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> out;
    for (const auto& f : files) {
      std::ifstream in(f);
      for (std::string line; std::getline(in, line);) out.push_back(line);
    }
    return out;
  }
  static http::CompletedRequest completed(const http::Response& reply, int64_t latency_ns) {
    http::CompletedRequest c;
    c.route = "unmatched";
    c.reply = &reply;
    c.status = reply.status();
    c.latency_ns = latency_ns;
    return c;
  }

  tracking::testing::TemporaryDirectory directory_;
  tracking::testing::ReactorLoop loop_;
};

TEST_F(AccessLogWriter, LinesAreWrittenInOrderAndRotatedBySize) {
  ASSERT_TRUE(loop_.ready());
  AccessLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), 0, settings(1));
  ASSERT_TRUE(log.enabled());
  ASSERT_TRUE(log.start().ok());
  http::Response reply;
  reply.set_status(204);
  for (int i = 0; i < 200; ++i) {
    log.append(completed(reply, i * 1000), "public");
    if (i % 20 == 19) loop_.run_for(5);  // several batches, so files rotate
  }
  close_and_wait(log);
  const std::vector<std::string> written = lines();
  ASSERT_EQ(written.size(), 200u);
  for (int i = 0; i < 200; ++i) {
    EXPECT_NE(written[i].find("\"duration_us\":" + std::to_string(i) + "}"), std::string::npos) << written[i];
  }
  EXPECT_EQ(log.counters().lines_written.get(), 200u);
  EXPECT_EQ(log.counters().lines_dropped.get(), 0u);
  // At least one rotation, whatever the disk's speed: the first needs no earlier file's
  // fdatasync to finish, later ones do (a slow disk, as under a parallel test run, lets a
  // file grow past the bound rather than close it unsynced).
  EXPECT_GE(log.counters().files_opened.get(), 2u);
}

TEST_F(AccessLogWriter, ASampleOfZeroOpensNothingAndObservesNoServer) {
  AccessLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), 0, settings(0));
  EXPECT_FALSE(log.enabled());
  EXPECT_TRUE(log.start().ok());
  bool closed = false;
  log.close([&] { closed = true; });
  EXPECT_TRUE(closed);
  EXPECT_FALSE(std::filesystem::exists(core_directory(directory_.path(), 0)));
  EXPECT_EQ(log.counters().lines_written.get(), 0u);
}

}  // namespace
}  // namespace service::access_log
