#pragma once
// A core's event log directory in a fresh temporary folder, written by hand: what the
// shipping tests read.
#include <sys/stat.h>
#include <utime.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tracking/events/log_files.h"

namespace tracking::event_shipping {

class LogDir {
 public:
  LogDir() {
    char pattern[] = "/tmp/event-shipping-XXXXXX";
    if (mkdtemp(pattern) == nullptr) ADD_FAILURE() << "mkdtemp";
    root_ = pattern;
    std::filesystem::create_directories(core_dir(0));
  }
  ~LogDir() { std::filesystem::remove_all(root_); }
  LogDir(const LogDir&) = delete;
  LogDir& operator=(const LogDir&) = delete;

  const std::string& state_dir() const { return root_; }
  std::string core_dir(uint32_t core) const { return events::core_dir(root_, core); }

  // A line as the event log writes it (its head: seq and time, then more members).
  static std::string line(uint64_t seq, int64_t time_ms = 1'790'000'000'000) {
    return R"({"seq":)" + std::to_string(seq) + R"(,"time_ms":)" + std::to_string(time_ms) +
           R"(,"kind":"decision","ad":1,"creative":2,"placement":7,"core":0})" + "\n";
  }
  static std::string lines(uint64_t first, uint64_t count) {
    std::string text;
    for (uint64_t s = first; s < first + count; ++s) text += line(s);
    return text;
  }
  // Appends text to core's file named by first_seq (creating it).
  void append(uint64_t first_seq, const std::string& text, uint32_t core = 0) {
    std::filesystem::create_directories(core_dir(core));
    std::ofstream(events::log_file_path(core_dir(core), first_seq), std::ios::app) << text;
  }
  // The file's last write time, Unix seconds.
  void set_written(uint64_t first_seq, int64_t written_s, uint32_t core = 0) {
    const utimbuf times{static_cast<time_t>(written_s), static_cast<time_t>(written_s)};
    utime(events::log_file_path(core_dir(core), first_seq).c_str(), &times);
  }

 private:
  std::string root_;
};

}  // namespace tracking::event_shipping
