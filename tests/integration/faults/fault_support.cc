#include "tests/integration/faults/fault_support.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/integration/event_log_lines.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"

namespace integration::faults {

namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool ImpressionSender::one_round(const ServerProcess& server, const std::string& user) {
  const CurlReply reply = decide(server, user, 3);
  if (reply.status != 200) return false;
  for (const CreativeTokens& c : tokens_of(reply.body)) {
    std::string storage;
    tracking::TrackingEvent event;
    if (!keys_.Open(c.impression, storage, event)) return false;
    const uint64_t ad = std::stoull(c.ad_id.substr(3));
    if (call_tracking(server, c.impression).status != 204) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    acknowledged_.push_back({user, ad, request_id_hex(event.request_id) + "/" + std::to_string(ad)});
  }
  return true;
}

size_t ImpressionSender::send(const ServerProcess& server, const std::string& prefix, size_t users, const std::atomic<bool>* stop) {
  size_t done = 0;
  for (size_t n = 0; n < users; ++n) {
    if (stop != nullptr && stop->load()) break;
    const std::string user = prefix + std::to_string(n);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      users_.insert(user);
    }
    // Two rounds: after them the user has ad 1 once or twice and ad 2 once (when served).
    if (!one_round(server, user) || !one_round(server, user)) break;
    ++done;
  }
  return done;
}

std::vector<Acknowledged> ImpressionSender::acknowledged() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return acknowledged_;
}

std::set<std::string> ImpressionSender::users() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return users_;
}

LogCensus census_of(const std::string& state_dir) {
  LogCensus census;
  for (const EventLine& line : read_event_lines(state_dir, &census.unreadable)) {
    if (line.kind != "impression" || !line.request || !line.ad) continue;
    const std::string key = *line.request + "/" + std::to_string(*line.ad);
    if (line.duplicate.value_or(false)) {
      ++census.repeats[key];
      continue;
    }
    ++census.counted[key];
    if (line.user) ++census.counted_by_user_ad[{*line.user, *line.ad}];
  }
  return census;
}

::testing::AssertionResult EveryOneLoggedOnce(const LogCensus& census, const std::vector<Acknowledged>& acknowledged) {
  size_t missing = 0;
  std::string first;
  for (const Acknowledged& a : acknowledged) {
    const auto it = census.counted.find(a.key);
    if (it != census.counted.end() && it->second == 1) continue;
    if (missing++ == 0) {
      first = a.key + " of " + a.user + " counted " + std::to_string(it == census.counted.end() ? 0 : it->second) +
              " times";
    }
  }
  if (missing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << missing << " of " << acknowledged.size()
                                       << " acknowledged impressions not logged exactly once; the first: " << first;
}

::testing::AssertionResult NothingCountedTwice(const LogCensus& census) {
  for (const auto& [key, n] : census.counted) {
    if (n != 1) return ::testing::AssertionFailure() << key << " counted " << n << " times in the log";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CapsAgreeWithTheLog(const ServerProcess& server, const LogCensus& census,
                                               const std::set<std::string>& users) {
  for (const std::string& user : users) {
    const CurlReply reply = decide(server, user, 3);
    if (reply.status != 200) return ::testing::AssertionFailure() << "decision for " << user << ": " << reply.status;
    std::set<std::string> served;
    for (const CreativeTokens& c : tokens_of(reply.body)) served.insert(c.ad_id);
    auto seen = [&](uint64_t ad) {
      const auto it = census.counted_by_user_ad.find({user, ad});
      return it == census.counted_by_user_ad.end() ? 0 : it->second;
    };
    const bool ad1 = seen(1) < 2, ad2 = seen(2) < 1;
    if (served.count("ad_1") != (ad1 ? 1u : 0u) || served.count("ad_2") != (ad2 ? 1u : 0u) ||
        served.count("ad_3") != 1) {
      return ::testing::AssertionFailure()
             << user << ": the log counts " << seen(1) << " impressions of ad 1 (cap 2) and " << seen(2)
             << " of ad 2 (cap 1), but the decision served " << served.size() << " ads: " << reply.body;
    }
  }
  return ::testing::AssertionSuccess();
}

DirectoryWatch::DirectoryWatch(const std::string& directory, uint32_t mask) {
  std::error_code ignored;
  std::filesystem::create_directories(directory, ignored);
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ >= 0) watch_ = ::inotify_add_watch(fd_, directory.c_str(), mask);
}

DirectoryWatch::~DirectoryWatch() {
  if (fd_ >= 0) ::close(fd_);
}

std::string DirectoryWatch::wait_for(std::string_view suffix, uint32_t mask, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  alignas(inotify_event) char buffer[16384];
  while (ok()) {
    const ssize_t n = ::read(fd_, buffer, sizeof(buffer));
    if (n > 0) {
      for (ssize_t at = 0; at < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        const std::string name = event->len > 0 ? std::string(event->name) : std::string();
        if ((event->mask & mask) != 0 && std::string_view(name).ends_with(suffix)) return name;
      }
      continue;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return {};
    pollfd p{fd_, POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 100)));
  }
  return {};
}

ReadOnlyBind::ReadOnlyBind(const std::string& directory) : directory_(directory) {
  if (::geteuid() != 0) {
    why_not_ = "not running as root, so no read-only bind mount can be made";
    return;
  }
  if (::mount(directory.c_str(), directory.c_str(), nullptr, MS_BIND, nullptr) != 0) {
    why_not_ = std::string("mount --bind failed (no CAP_SYS_ADMIN in this container?): ") + std::strerror(errno);
    return;
  }
  mounted_ = true;
  if (::mount(nullptr, directory.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
    why_not_ = std::string("remount read-only failed: ") + std::strerror(errno);
    release();
  }
}

ReadOnlyBind::~ReadOnlyBind() { release(); }

void ReadOnlyBind::release() {
  if (mounted_) ::umount2(directory_.c_str(), MNT_DETACH);
  mounted_ = false;
}

std::set<std::string> write_impression_history(const std::string& state_dir, uint32_t cores,
                                               const std::string& prefix, size_t users) {
  std::vector<std::ofstream> files;
  std::vector<uint64_t> seq(cores, 0);
  for (uint32_t core = 0; core < cores; ++core) {
    const std::string directory = state_dir + "/events/core-" + std::to_string(core);
    std::filesystem::create_directories(directory);
    files.emplace_back(directory + "/00000000000000000000.jsonl", std::ios::binary | std::ios::trunc);
  }
  std::set<std::string> capped;
  const int64_t at_ms = now_ms() - 60'000;
  const int64_t issued_s = at_ms / 1000;
  char line[512];
  // Impression ids as the server makes them, hashes (splitmix64 here): their low 10 bits
  // give way to the user's shard bits, so ids that differ only there would be one id.
  uint64_t token_state = 0x5a5a5a5a5a5a5a5aull;
  auto next_token = [&token_state] {
    uint64_t z = (token_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (size_t n = 0; n < users; ++n) {
    const std::string user = prefix + std::to_string(n);
    const uint32_t core = owner_core_of(user, cores);
    const int impressions = n % 1000 == 0 ? 2 : 1;
    if (impressions == 2) capped.insert(user);
    for (int i = 0; i < impressions; ++i) {
      const int length = std::snprintf(
          line, sizeof(line),
          "{\"seq\":%llu,\"time_ms\":%lld,\"kind\":\"impression\",\"ad\":1,\"creative\":10,\"placement\":7,"
          "\"request\":\"%032llx\",\"user\":\"%s\",\"core\":%u,\"duplicate\":false,\"issued_s\":%lld,"
          "\"expires_s\":%lld,\"token\":\"%016llx\"}\n",
          static_cast<unsigned long long>(seq[core]++), static_cast<long long>(at_ms),
          static_cast<unsigned long long>(n * 2 + static_cast<size_t>(i)), user.c_str(), core,
          static_cast<long long>(issued_s), static_cast<long long>(issued_s + 3600),
          static_cast<unsigned long long>(next_token()));
      files[core].write(line, length);
    }
  }
  return capped;
}

int snapshots_loaded(const std::string& stderr_text) {
  static const std::regex kLine(R"(state recovered in \d+ ms: (\d+) snapshot\(s\))");
  std::smatch match;
  return std::regex_search(stderr_text, match, kLine) ? std::stoi(match[1].str()) : -1;
}

}  // namespace integration::faults
