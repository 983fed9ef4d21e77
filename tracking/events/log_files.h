#pragma once
// Where the event log lives: <state-dir>/events/core-<N>/<first seq, 20 digits>.jsonl.
// Files are named by the sequence number of their first line, so start-up finds where to
// resume replay from the names alone, and names sort in log order.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracking::events {

std::string events_dir(std::string_view state_dir);
std::string core_dir(std::string_view state_dir, uint32_t core);
// <first seq, 20 digits>.jsonl
std::string log_file_name(uint64_t first_seq);
std::string log_file_path(std::string_view core_directory, uint64_t first_seq);

struct LogFile {
  std::string path;
  uint64_t first_seq = 0;
};

// The log files of one core's directory, in order; none when it does not exist.
std::vector<LogFile> list_log_files(const std::string& core_directory);
// The cores that have a directory under <state-dir>/events, ascending.
std::vector<uint32_t> list_core_dirs(std::string_view state_dir);

}  // namespace tracking::events
