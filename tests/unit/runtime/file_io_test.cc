// File operations through a core's ring (runtime/file_io.h): each completes on the reactor's
// thread with the system call's result, -errno on failure, and the caller's tag; loop hooks
// run once per iteration before the wait, so what they submit goes out in that iteration.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"
#include "tests/unit/runtime/reactor_test_loop.h"

namespace runtime {
namespace {

using testing::Completions;
using testing::Deadline;
using testing::small_reactor;

class ScratchDirectory {
 public:
  ScratchDirectory() {
    char pattern[] = "/tmp/decisiond-file-io-test-XXXXXX";
    const char* made = mkdtemp(pattern);
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "";
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

class FileIoTest : public ::testing::Test {
 protected:
  explicit FileIoTest(int64_t tick_ms = 5)
      : mailbox_(1), reactor_(0, mailbox_, SystemClock::instance(), small_reactor(tick_ms)) {}
  void SetUp() override { ASSERT_TRUE(reactor_.init().ok()); }
  // Runs the loop until the completions stop it; false on the deadline.
  bool run() {
    Deadline deadline(reactor_);
    reactor_.run();
    return !deadline.expired;
  }
  static std::string contents(const std::string& path) {
    std::string out(4096, '\0');
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "<missing>";
    const ssize_t n = ::pread(fd, out.data(), out.size(), 0);
    ::close(fd);
    out.resize(n < 0 ? 0 : static_cast<size_t>(n));
    return out;
  }

  ScratchDirectory directory_;
  Mailbox mailbox_;
  Reactor reactor_;
};

TEST_F(FileIoTest, WritesLandAtTheirOffsetsAndFdatasyncCompletes) {
  const std::string path = directory_.file("data");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  static const char kFirst[] = "hello";
  static const char kSecond[] = "world";
  Completions done(reactor_, 3);
  reactor_.write(fd, kFirst, 5, 0, done, 1);
  reactor_.write(fd, kSecond, 5, 8, done, 2);
  reactor_.sync_data(fd, done, 3);
  ASSERT_TRUE(run());
  EXPECT_EQ(done.result_of(1), 5);
  EXPECT_EQ(done.result_of(2), 5);
  EXPECT_EQ(done.result_of(3), 0);
  EXPECT_EQ(contents(path), std::string("hello\0\0\0world", 13));
  ::close(fd);
}

TEST_F(FileIoTest, OpenRenameAndCloseGoThroughTheRing) {
  const std::string temporary = directory_.file("snap.tmp");
  const std::string final_path = directory_.file("snap");
  Completions opened(reactor_, 1);
  reactor_.open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600, opened, 7);
  ASSERT_TRUE(run());
  const int fd = opened.result_of(7);
  ASSERT_GE(fd, 0);

  static const char kBytes[] = "state";
  Completions rest(reactor_, 3);
  reactor_.write(fd, kBytes, 5, 0, rest, 1);
  reactor_.rename(temporary.c_str(), final_path.c_str(), rest, 2);
  reactor_.close(fd, rest, 3);
  ASSERT_TRUE(run());
  EXPECT_EQ(rest.result_of(1), 5);
  EXPECT_EQ(rest.result_of(2), 0);
  EXPECT_EQ(rest.result_of(3), 0);
  EXPECT_FALSE(std::filesystem::exists(temporary));
  EXPECT_EQ(contents(final_path), "state");
}

TEST_F(FileIoTest, RefusedOperationsCompleteWithMinusErrno) {
  const std::string path = directory_.file("read-only");
  const int created = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(created, 0);
  ::close(created);
  const int read_only = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(read_only, 0);
  static const char kBytes[] = "x";
  const std::string missing = directory_.file("no-such-dir/file");
  Completions done(reactor_, 3);
  reactor_.write(read_only, kBytes, 1, 0, done, 1);
  reactor_.open(missing.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600, done, 2);
  reactor_.rename(missing.c_str(), path.c_str(), done, 3);
  ASSERT_TRUE(run());
  EXPECT_EQ(done.result_of(1), -EBADF);
  EXPECT_EQ(done.result_of(2), -ENOENT);
  EXPECT_EQ(done.result_of(3), -ENOENT);
  ::close(read_only);
}

// A hook that submits a write on its first call: with a one-second tick, the write completing
// at once shows that the hook ran before that iteration's submission, not after it.
class WriteOnce final : public LoopHook {
 public:
  WriteOnce(Reactor& reactor, int fd, Completions& done) : reactor_(reactor), fd_(fd), done_(done) {}
  void before_wait() override {
    if (calls++ == 0) reactor_.write(fd_, "z", 1, 0, done_, 9);
  }
  int calls = 0;

 private:
  Reactor& reactor_;
  int fd_;
  Completions& done_;
};

class LoopHookTest : public FileIoTest {
 protected:
  LoopHookTest() : FileIoTest(1000) {}
};

TEST_F(LoopHookTest, HooksRunBeforeEachWaitAndWhatTheySubmitGoesOutThen) {
  const std::string path = directory_.file("hooked");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  Completions done(reactor_, 1);
  WriteOnce hook(reactor_, fd, done);
  reactor_.add_loop_hook(hook);
  const auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(run());
  const auto elapsed = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(done.result_of(9), 1);
  EXPECT_LT(elapsed, std::chrono::milliseconds(500));
  EXPECT_GE(hook.calls, 1);

  reactor_.remove_loop_hook(hook);
  const int calls = hook.calls;
  Completions more(reactor_, 1);
  reactor_.sync_data(fd, more, 1);
  ASSERT_TRUE(run());
  EXPECT_EQ(hook.calls, calls);  // removed: not called again
  ::close(fd);
}

}  // namespace
}  // namespace runtime
