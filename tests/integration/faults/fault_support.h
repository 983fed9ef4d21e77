#pragma once
// What the fault tests share (issue 12 point 5): impressions sent and acknowledged while a
// test kills the server, the point up to which the server has handed every acknowledged
// line to the kernel (wait_until_logged, tests/integration/state_dir_waits.h), the event log
// counted by impression, the caps a restarted server applies compared with that log, the
// moments a file is created or written under a directory (inotify, to kill the server in
// the middle of a rotation or a snapshot), a read-only bind mount, and an event log written
// by the test to give the server a large state.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/server_process.h"
#include "tests/integration/token_keys.h"

namespace integration::faults {

// An impression the server answered 204 to, named as the log names it: "<request>/<ad>"
// (request: 32 hex digits; the ad's catalog id).
struct Acknowledged {
  std::string user;
  uint64_t ad = 0;
  std::string key;
};

// Decisions on home_top (count 3) of capped_catalog_json for users "<prefix><n>", each
// user decided twice in a row, every creative's impression called once. Thread-safe:
// one thread sends while another kills the server.
class ImpressionSender {
 public:
  explicit ImpressionSender(StateDirWithKeys& keys) : keys_(keys) {}
  // Sends rounds until `users` users are done, *stop is set, or a call fails (the server died); returns
  // the number of users completed.
  size_t send(const ServerProcess& server, const std::string& prefix, size_t users, const std::atomic<bool>* stop = nullptr);
  std::vector<Acknowledged> acknowledged() const;
  std::set<std::string> users() const;

 private:
  bool one_round(const ServerProcess& server, const std::string& user);

  StateDirWithKeys& keys_;
  mutable std::mutex mutex_;
  std::vector<Acknowledged> acknowledged_;
  std::set<std::string> users_;
};

// The impression lines of a state directory's event log, by "<request>/<ad>".
struct LogCensus {
  std::map<std::string, int> counted;     // non-duplicate lines
  std::map<std::string, int> repeats;     // duplicate lines
  std::map<std::pair<std::string, uint64_t>, int> counted_by_user_ad;
  size_t unreadable = 0;                  // lines that are not JSON (torn lines without a newline are left out)
};
LogCensus census_of(const std::string& state_dir);

// Every acknowledged impression is in the log, counted exactly once; and no impression of
// the log is counted twice.
::testing::AssertionResult EveryOneLoggedOnce(const LogCensus& census, const std::vector<Acknowledged>& acknowledged);
::testing::AssertionResult NothingCountedTwice(const LogCensus& census);

// The caps of capped_catalog_json (ad 1: 2 an hour, ad 2: 1 a day, ad 3 uncapped) as a
// running server applies them to `users`, compared with what the log says each user saw:
// a decision for 3 creatives on home_top serves ad 1 iff the log counts fewer than 2 of its
// impressions for the user, ad 2 iff fewer than 1, ad 3 always.
::testing::AssertionResult CapsAgreeWithTheLog(const ServerProcess& server, const LogCensus& census,
                                               const std::set<std::string>& users);

// inotify on one directory: waits for a file event whose name ends with `suffix`.
class DirectoryWatch {
 public:
  // mask: IN_CREATE, IN_MODIFY, IN_OPEN, ... (sys/inotify.h)
  DirectoryWatch(const std::string& directory, uint32_t mask);
  DirectoryWatch(const DirectoryWatch&) = delete;
  DirectoryWatch& operator=(const DirectoryWatch&) = delete;
  ~DirectoryWatch();
  bool ok() const { return fd_ >= 0 && watch_ >= 0; }
  // The name of the first event after any seen before whose name ends with suffix and
  // whose mask intersects `mask`; empty at the deadline.
  std::string wait_for(std::string_view suffix, uint32_t mask, std::chrono::milliseconds timeout);

 private:
  int fd_ = -1;
  int watch_ = -1;
};

// The directory bind-mounted read-only over itself for the object's life (chmod does not
// stop root). Needs CAP_SYS_ADMIN: when it cannot, why_not() says so and the test skips.
class ReadOnlyBind {
 public:
  explicit ReadOnlyBind(const std::string& directory);
  ReadOnlyBind(const ReadOnlyBind&) = delete;
  ReadOnlyBind& operator=(const ReadOnlyBind&) = delete;
  ~ReadOnlyBind();
  bool mounted() const { return mounted_; }
  const std::string& why_not() const { return why_not_; }
  void release();  // unmounts now (lazily: files the server holds open stay usable)

 private:
  std::string directory_;
  bool mounted_ = false;
  std::string why_not_;
};

// Writes an event log of `users` users ("<prefix><n>"), each with one impression of ad 1
// a minute ago (counted against its cap of 2 an hour; its token valid for another hour),
// each line in the files of the user's owner core among `cores`, as a server would have
// logged them: a large state for start-up to rebuild and for snapshots to write. Returns
// the users with two impressions instead of one (every 1000th), who are capped on ad 1.
std::set<std::string> write_impression_history(const std::string& state_dir, uint32_t cores,
                                               const std::string& prefix, size_t users);

// The number the recovery line "state recovered ...: N snapshot(s)" of stderr gives; -1
// when the line is missing.
int snapshots_loaded(const std::string& stderr_text);

}  // namespace integration::faults
