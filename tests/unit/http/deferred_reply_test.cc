// Deferred replies (http/reply_ticket.h) over a real socket, answered by another core:
// the reply comes when the other core has answered, pipelined replies keep request order,
// and an answer for a client that has gone is dropped without harm.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "http/server.h"
#include "runtime/core_group.h"
#include "runtime/socket_address.h"

namespace http {
namespace {

// What the test thread reads back; written by core 0 only.
std::atomic<int> completed{0};
std::atomic<int> dropped{0};

struct Ask {
  ReplyTicket ticket;
  std::string path;
  runtime::Reactor* home = nullptr;
};

class DelayedAnswer final : public runtime::Timer {
 public:
  explicit DelayedAnswer(Ask* ask) : ask_(ask) {}
  void on_expire() override;

 private:
  Ask* ask_;
};

// Back on the asking core: the ticket is completed there, where it was issued.
void answer_on_home(runtime::Reactor&, const runtime::Message& m) {
  auto* ask = static_cast<Ask*>(m.pointer);
  Response reply;
  reply.set_text(200, "answered " + ask->path);
  if (ask->ticket.complete(reply)) {
    completed.fetch_add(1);
  } else {
    dropped.fetch_add(1);
  }
  delete ask;
}

void post_home(runtime::Reactor& here, Ask* ask) {
  runtime::Message back;
  back.run = &answer_on_home;
  back.pointer = ask;
  ASSERT_TRUE(here.post(0, back));
}

void DelayedAnswer::on_expire() {
  // Runs on core 1's reactor; its wheel owns this timer only until it fires.
  runtime::Reactor* here = ask_->home;
  Ask* ask = ask_;
  delete this;
  post_home(*here, ask);
}

runtime::Reactor* cores[2] = {nullptr, nullptr};

// On the other core: answer at once, or after 300 ms for /late.
void answer_on_peer(runtime::Reactor& here, const runtime::Message& m) {
  auto* ask = static_cast<Ask*>(m.pointer);
  ask->home = &here;
  if (ask->path == "/late") {
    here.timers().schedule(*new DelayedAnswer(ask), 300);
    return;
  }
  post_home(here, ask);
}

class RelayHandler final : public Handler {
 public:
  void handle(const Request& request, Response& response) override {
    if (request.path == "/now") {
      response.set_text(200, "now");
      return;
    }
    auto* ask = new Ask{response.defer(), std::string(request.path)};
    runtime::Message m;
    m.run = &answer_on_peer;
    m.pointer = ask;
    ASSERT_TRUE(cores[0]->post(1, m));
  }
};

class DeferredReplyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    completed.store(0);
    dropped.store(0);
    absl::StatusOr<runtime::SocketAddress> address = runtime::SocketAddress::parse("127.0.0.1:0");
    ASSERT_TRUE(address.ok());
    absl::StatusOr<int> fd = runtime::open_listener(*address);
    ASSERT_TRUE(fd.ok());
    listen_fd_ = *fd;
    port_ = runtime::bound_address(listen_fd_)->port();
    router_.add(Method::kGet, "/now", "now", handler_);
    router_.add(Method::kGet, "/slow", "slow", handler_);
    router_.add(Method::kGet, "/late", "late", handler_);
    runtime::CoreGroupConfig config;
    config.cores = 2;
    config.reactor.ring_entries = 64;
    config.reactor.recv_buffer_count = 16;
    config.reactor.recv_buffer_bytes = 4096;
    config.reactor.max_sockets = 16;
    config.reactor.tick_ms = 10;
    group_ = std::make_unique<runtime::CoreGroup>(config, runtime::SystemClock::instance());
    const absl::Status started = group_->start(
        [this](runtime::Reactor& reactor) {
          cores[reactor.index()] = &reactor;
          if (reactor.index() == 0) {
            server_ = std::make_unique<Server>(reactor, router_, HttpLimits{});
            reactor.listen(listen_fd_, *server_);
          }
          return absl::OkStatus();
        },
        [this](runtime::Reactor& reactor) {
          if (reactor.index() == 0) server_.reset();
        });
    ASSERT_TRUE(started.ok()) << started;
  }

  void TearDown() override {
    runtime::Message stop;
    stop.run = [](runtime::Reactor& here, const runtime::Message&) { here.request_stop(); };
    for (uint32_t core = 0; core < 2; ++core) group_->post_one_way(core, stop);
    group_->join();
  }

  int connect_client() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port_);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    return fd;
  }

  // Reads until last_text has arrived (the test's bodies are short and end each reply), or
  // the connection ends or times out.
  static std::string read_until(int fd, std::string_view last_text, std::string in = {}) {
    char buffer[4096];
    while (in.find(last_text) == std::string::npos) {
      const ssize_t n = ::read(fd, buffer, sizeof(buffer));
      // The group's control ring can interrupt this thread's reads (io_uring task work).
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      in.append(buffer, static_cast<size_t>(n));
    }
    return in;
  }

  static bool wait_for(const std::atomic<int>& counter, int value) {
    for (int i = 0; i < 500 && counter.load() < value; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return counter.load() >= value;
  }

  RelayHandler handler_;
  Router router_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<runtime::CoreGroup> group_;
  int listen_fd_ = -1;
  uint16_t port_ = 0;
};

TEST_F(DeferredReplyTest, ReplyComesAfterTheOtherCoreAnswers) {
  const int fd = connect_client();
  const std::string request = "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n";
  ASSERT_EQ(::write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));
  const std::string reply = read_until(fd, "answered /slow");
  EXPECT_EQ(reply.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << reply;
  EXPECT_NE(reply.find("answered /slow"), std::string::npos);
  EXPECT_EQ(completed.load(), 1);
  ::close(fd);
}

TEST_F(DeferredReplyTest, PipelinedRepliesKeepRequestOrder) {
  const int fd = connect_client();
  // The deferred request first, answered 300 ms later; the immediate ones behind it wait.
  const std::string requests =
      "GET /late HTTP/1.1\r\nHost: t\r\n\r\n"
      "GET /now HTTP/1.1\r\nHost: t\r\n\r\n"
      "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n"
      "GET /now HTTP/1.1\r\nHost: t\r\n\r\n";
  ASSERT_EQ(::write(fd, requests.data(), requests.size()), static_cast<ssize_t>(requests.size()));
  std::string replies = read_until(fd, "answered /slow");
  // The last reply, right behind: its body "now" ends the stream.
  while (!replies.ends_with("now")) {
    const std::string more = read_until(fd, "now");
    if (more.empty()) break;
    replies += more;
  }
  const size_t late = replies.find("answered /late");
  const size_t first_now = replies.find("now", late == std::string::npos ? 0 : late + 14);
  const size_t slow = replies.find("answered /slow");
  ASSERT_NE(late, std::string::npos) << replies;
  ASSERT_NE(first_now, std::string::npos) << replies;
  ASSERT_NE(slow, std::string::npos) << replies;
  EXPECT_LT(late, first_now);
  EXPECT_LT(first_now, slow);
  EXPECT_NE(replies.find("now", slow + 14), std::string::npos) << replies;
  ::close(fd);
}

TEST_F(DeferredReplyTest, AnswerForAClosedConnectionIsDroppedAndTheServerGoesOn) {
  const int gone = connect_client();
  const std::string late = "GET /late HTTP/1.1\r\nHost: t\r\n\r\n";
  ASSERT_EQ(::write(gone, late.data(), late.size()), static_cast<ssize_t>(late.size()));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // A reset rather than a FIN: the server sees the connection fail and releases it.
  linger hard_close{1, 0};
  ::setsockopt(gone, SOL_SOCKET, SO_LINGER, &hard_close, sizeof(hard_close));
  ::close(gone);
  ASSERT_TRUE(wait_for(dropped, 1)) << "the late answer never arrived";
  EXPECT_EQ(completed.load(), 0);

  // A new client, maybe on the very connection object that was released, is served.
  const int fd = connect_client();
  const std::string request = "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n";
  ASSERT_EQ(::write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));
  EXPECT_NE(read_until(fd, "answered /slow").find("answered /slow"), std::string::npos);
  ::close(fd);
}

TEST_F(DeferredReplyTest, ClientThatHalfClosesStillGetsItsDeferredReply) {
  const int fd = connect_client();
  const std::string request = "GET /late HTTP/1.1\r\nHost: t\r\n\r\n";
  ASSERT_EQ(::write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));
  ::shutdown(fd, SHUT_WR);
  const std::string reply = read_until(fd, "answered /late");
  EXPECT_NE(reply.find("answered /late"), std::string::npos) << reply;
  ::close(fd);
}

}  // namespace
}  // namespace http
