#pragma once
// Every node's event log read back for the soak's checks, with what they need beyond the
// harness's LogLine: the node, core, sequence and time of each line, the request it served,
// the `attempt` stamp of an unapplied impression (docs/events.md "Line kinds").
#include <cstdint>
#include <string>
#include <vector>

namespace integration {

struct SoakLine {
  uint32_t node = 0;
  uint32_t core = 0;
  uint64_t seq = 0;
  int64_t time_ms = 0;  // when it happened: an impression's is the call's, also on its unapplied and reapplied lines
  // When the line was written, within these bounds: no line is written before its time,
  // lines are written in seq order, and a decision line is written as it is decided. So
  // the earliest is the latest time_ms of the core's lines up to it, the latest the
  // time_ms of the core's next decision line (the end of time when none follows).
  int64_t written_earliest_ms = 0;
  int64_t written_latest_ms = 0;
  std::string kind;
  uint64_t ad = 0;
  std::string user;
  std::string identity;  // impressions: `token`; decisions: the identity their ad's impression will have
  bool duplicate = false;
  std::string store;    // "", "unapplied" or "reapplied"
  std::string attempt;  // with store "unapplied"
  std::string invalid;

  // docs/events.md "Counting impressions across every node's log".
  bool counted() const {
    return kind == "impression" && !duplicate && store != "unapplied" && invalid.empty();
  }
};

// Every whole line of every core's log under state_dir (a torn last line is skipped).
std::vector<SoakLine> read_soak_lines(const std::string& state_dir, uint32_t node);

}  // namespace integration
