// The shipper's upkeep (event_shipper.h): checkpoints, the backlog's metrics, retention.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tracking/event_shipping/event_shipper.h"

namespace tracking::event_shipping {

void EventShipper::save_checkpoints(int64_t now_ms) {
  checkpoints_ms_ = now_ms;
  for (const auto& log : logs_) {
    // No checkpoint yet: nothing published (the first is written before the first publish).
    // A read-back pending: the checkpoint's floor is where it starts, kept until it is done.
    if (!log->has_checkpoint() || log->needs_read_back()) continue;
    if (absl::Status saved = log->save_checkpoint(floor_now_); !saved.ok()) {
      counters_.checkpoint_errors.add();
      said_checkpoint_.say_if_new(runtime::log::Level::kWarn, absl::StrCat(saved.message(), "; the previous checkpoint stays"));
    }
  }
}

void EventShipper::measure() {
  struct Sum {
    int64_t oldest_ms = 0;
    uint64_t lines = 0;
    uint64_t bytes = 0;
    uint64_t torn = 0;
  };
  std::vector<Sum> sums(settings_.cores);
  for (const auto& log : logs_) {
    const LogBacklog backlog = log->backlog();
    Sum& sum = sums[log->core() % settings_.cores];
    if (backlog.oldest_ms != 0 && (sum.oldest_ms == 0 || backlog.oldest_ms < sum.oldest_ms)) {
      sum.oldest_ms = backlog.oldest_ms;
    }
    sum.lines += backlog.lines;
    sum.bytes += backlog.bytes;
    sum.torn += log->cursor().torn_lines();
  }
  for (uint32_t core = 0; core < settings_.cores; ++core) {
    ShipCoreCounters& counters = core_counters_[core];
    counters.oldest_unshipped_ms.set(static_cast<uint64_t>(sums[core].oldest_ms));
    counters.lines_behind.set(sums[core].lines);
    counters.bytes_behind.set(sums[core].bytes);
    counters.torn_lines.set(sums[core].torn);
  }
}

void EventShipper::remove_shipped_files(int64_t now_ms) {
  for (const auto& log : logs_) {
    const std::optional<uint64_t> replay_from = replay_start_seq(settings_.state_dir, log->core());
    for (const std::string& path :
         removable_log_files(log->directory(), log->window().next_seq(), replay_from, now_ms / 1000,
                             settings_.retention)) {
      if (::unlink(path.c_str()) == 0) {
        counters_of(*log).files_removed.add();
      } else {
        said_removal_.say_if_new(runtime::log::Level::kWarn, absl::StrCat("cannot remove shipped file ", path, ": ", std::strerror(errno)));
      }
    }
  }
}

}  // namespace tracking::event_shipping
