#include "tests/integration/cluster/soak_faults.h"

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "tests/integration/cluster/cluster_load.h"

namespace integration {

namespace {

// A drain takes up to --drain-timeout (5 s) plus the log's last sync: generous beyond it.
constexpr std::chrono::milliseconds kGracefulExitTimeout{30000};

void say(const FaultRecord& record, int64_t origin_ms) {
  // A primary by its first slots too: its port is a free one, another in every run.
  const std::string slots = record.slots.empty() ? "" : " (slots " + std::to_string(record.slots[0].first) + "-" +
                                                            std::to_string(record.slots[0].second) + ")";
  std::printf("[ soak ] +%.1fs %s %u%s t=%lld..%lld%s%s\n", static_cast<double>(record.start_ms - origin_ms) / 1000.0,
              std::string(fault_name(record.kind)).c_str(), record.target, slots.c_str(),
              static_cast<long long>(record.start_ms), static_cast<long long>(record.healed_ms),
              record.failed_over ? " (failed over)" : "", record.error.empty() ? "" : (" ERROR: " + record.error).c_str());
  std::fflush(stdout);
}

void sleep_ms(int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

bool FaultRecord::hit_slot(int slot) const {
  for (const auto& [low, high] : slots) {
    if (slot >= low && slot <= high) return true;
  }
  return false;
}

SoakFaults::SoakFaults(RedisCluster& redis, ClusterNodes& nodes, NodeDirectory& directory)
    : redis_(redis), nodes_(nodes), directory_(directory) {}

std::vector<FaultRecord> SoakFaults::carry_out(const std::vector<PlannedFault>& plan, int64_t duration_ms) {
  std::vector<FaultRecord> done;
  const int64_t origin_ms = unix_now_ms();
  for (const PlannedFault& fault : plan) {
    if (unix_now_ms() + fault.gap_ms >= origin_ms + duration_ms) break;
    sleep_ms(fault.gap_ms);
    const bool on_primary = fault.kind == FaultKind::kPrimaryKilled || fault.kind == FaultKind::kPrimaryPaused;
    FaultRecord record = on_primary ? primary_fault(fault) : node_fault(fault);
    say(record, origin_ms);
    const bool failed = !record.error.empty();
    done.push_back(std::move(record));
    if (failed) return done;
  }
  // The traffic runs to its deadline when the plan's next gap would pass it.
  const int64_t left_ms = origin_ms + duration_ms - unix_now_ms();
  if (left_ms > 0) sleep_ms(left_ms);
  return done;
}

FaultRecord SoakFaults::primary_fault(const PlannedFault& fault) {
  FaultRecord record;
  record.kind = fault.kind;
  // The primary serving a slot the plan names, not the n-th by port: ports are free ones,
  // different in every run, while the fixture lays the slots out the same way each time,
  // so a replayed seed hits the same users' primary.
  const int slot = static_cast<int>(fault.target % kClusterSlots);
  const std::vector<uint16_t> primaries = redis_.primary_ports();
  const CliReply view = primaries.empty() ? CliReply{} : redis_.cli({"CLUSTER", "NODES"}, primaries[0]);
  for (const NodeLine& line : parse_cluster_nodes(view.out)) {
    if (line.is_primary() && line.serves(slot)) {
      record.target = line.port;
      record.slots = line.slots;
    }
  }
  if (record.target == 0) {
    record.error = "no primary serves slot " + std::to_string(slot) + ": " + redis_.error() + view.error;
    return record;
  }
  const uint16_t victim = static_cast<uint16_t>(record.target);
  record.start_ms = unix_now_ms();
  if (fault.kind == FaultKind::kPrimaryKilled) {
    const bool ok = redis_.kill_node(victim, SIGKILL) && redis_.wait_for_failover(victim);
    record.failed_over = ok;
    sleep_ms(fault.hold_ms);
    if (!ok || !redis_.restart_node(victim) || !redis_.wait_until_settled()) record.error = redis_.error();
  } else {
    const bool ok = redis_.kill_node(victim, SIGSTOP);
    sleep_ms(fault.hold_ms);
    if (!ok || !redis_.kill_node(victim, SIGCONT) || !redis_.wait_until_settled()) record.error = redis_.error();
    const std::optional<RedisClusterNode> after = redis_.node(victim);
    record.failed_over = after && after->role != "master";
  }
  record.healed_ms = unix_now_ms();
  return record;
}

FaultRecord SoakFaults::node_fault(const PlannedFault& fault) {
  FaultRecord record;
  record.kind = fault.kind;
  const uint32_t node = fault.target % static_cast<uint32_t>(nodes_.size());
  record.target = node;
  directory_.take_down(node);
  ServerProcess& process = nodes_.node(node);
  if (process.wait_for_exit(std::chrono::milliseconds(0))) {
    record.exit = process.wait_for_exit(std::chrono::milliseconds(0));
    record.error = "node " + std::to_string(node) + " had ended before its fault: " + record.exit->describe();
    return record;
  }
  const int signal = fault.kind == FaultKind::kNodeKilled ? SIGKILL : SIGTERM;
  record.start_ms = unix_now_ms();
  process.send_signal(signal);
  record.exit = process.wait_for_exit(kGracefulExitTimeout);
  if (!record.exit) {
    record.error = "node " + std::to_string(node) + " still running " + std::to_string(kGracefulExitTimeout.count()) +
                   " ms after signal " + std::to_string(signal);
    return record;
  }
  sleep_ms(fault.kind == FaultKind::kNodeKilled ? fault.hold_ms : 0);
  // The process has ended, so restart's own signal finds nothing to send.
  if (!nodes_.restart(node, signal)) {
    record.error = "node " + std::to_string(node) + " did not serve again: " + nodes_.node(node).start_error();
    return record;
  }
  directory_.bring_up(node, nodes_.node(node).public_url(""));
  record.healed_ms = unix_now_ms();
  return record;
}

}  // namespace integration
