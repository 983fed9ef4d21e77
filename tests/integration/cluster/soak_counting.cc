// The soak's checks of answers, of counting (nothing acknowledged lost, each identity
// counted once) and of the processes' exits.
#include <signal.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "tests/integration/cluster/soak_checks.h"
#include "tests/integration/cluster/soak_index.h"

namespace integration {

namespace {

constexpr size_t kExamples = 5;

std::string call_text(const char* what, const std::string& user, const SoakCall& call) {
  return std::string(what) + " for " + user + " on node" + std::to_string(call.node) + " at " +
         std::to_string(call.sent_ms) + ": " + (call.status == 0 ? "no reply (" + call.error + ")" : std::to_string(call.status));
}

void check_call(const char* what, const std::string& user, const SoakCall& call, long documented,
                SoakFindings& findings) {
  if (call.status == documented) return;
  if (!call.at_fault) {
    findings.failed_on_live_node.add(call_text(what, user, call));
  } else if (call.status == 0) {
    ++findings.unanswered_at_fault;
  } else {
    findings.answered_otherwise_at_fault.add(call_text(what, user, call));
  }
}

// The identity acknowledged: any of its calls answered 204.
std::unordered_map<std::string, const SoakDecision*> acknowledged(const SoakRecord& record) {
  std::unordered_map<std::string, const SoakDecision*> acked;
  for (const SoakImpressionCall& c : record.impressions) {
    if (c.call.status != 204) continue;
    const SoakDecision& d = record.decisions[c.decision];
    acked.emplace(d.served[c.served].identity, &d);
  }
  return acked;
}

// An attempt is kept when its answer comes later than the store's deadline (the soak's
// --caps-timeout), or never.
constexpr int64_t kKeptAfterMs = 25;

// When each attempt's answer (its reapplied line) was written at the earliest, by node and stamp.
std::map<std::pair<uint32_t, std::string>, int64_t> answers_by_attempt(const std::vector<SoakLine>& lines) {
  std::map<std::pair<uint32_t, std::string>, int64_t> answers;
  for (const SoakLine& l : lines) {
    if (l.kind != "impression" || l.store != "reapplied" || l.attempt.empty()) continue;
    auto [it, fresh] = answers.emplace(std::make_pair(l.node, l.attempt), l.written_earliest_ms);
    if (!fresh) it->second = std::min(it->second, l.written_earliest_ms);
  }
  return answers;
}

// Which primary faults were under way when an impression the store did not take in time came.
void count_kept(const std::vector<FaultRecord>& faults, const SoakLine& line, SoakFindings& findings) {
  const int slot = line.user.empty() ? -1 : user_slot(line.user);
  bool own = false, other = false;
  for (const FaultRecord& f : faults) {
    const bool on_primary = f.kind == FaultKind::kPrimaryKilled || f.kind == FaultKind::kPrimaryPaused;
    if (!on_primary || line.time_ms < f.start_ms || line.time_ms > f.healed_ms) continue;
    (f.hit_slot(slot) ? own : other) = true;
  }
  ++(own ? findings.unapplied_own_primary_faulted
         : other ? findings.unapplied_other_primary_faulted : findings.unapplied_no_primary_fault);
}

}  // namespace

void Finding::add(std::string example) {
  ++count;
  if (examples.size() < kExamples) examples.push_back(std::move(example));
}

void check_answers(const SoakEvidence& evidence, SoakFindings& findings) {
  for (const SoakDecision& d : evidence.record.decisions) {
    ++findings.decisions;
    findings.decisions_answered += d.call.status == 200 ? 1 : 0;
    check_call("decision", d.user, d.call, 200, findings);
  }
  for (const SoakImpressionCall& c : evidence.record.impressions) {
    ++findings.impression_calls;
    findings.impression_calls_answered += c.call.status == 204 ? 1 : 0;
    check_call("impression", evidence.record.decisions[c.decision].user, c.call, 204, findings);
  }
  for (const FaultRecord& f : evidence.faults) {
    ++findings.faults_by_kind[std::string(fault_name(f.kind))];
    findings.primaries_failed_over += f.failed_over ? 1 : 0;
  }
}

// A decision's lines leave with its reply in one submission, not before it, on the core
// that decided (docs/events.md "Writing": the window left): a node killed within this long
// after the reply may have taken them.
constexpr int64_t kReplyWriteWindowMs = 100;

bool killed_right_after(const std::vector<FaultRecord>& faults, const SoakCall& call) {
  for (const FaultRecord& f : faults) {
    if (f.kind == FaultKind::kNodeKilled && f.target == call.node && call.sent_ms <= f.start_ms &&
        f.start_ms <= call.answered_ms + kReplyWriteWindowMs) {
      return true;
    }
  }
  return false;
}

void check_counting(const SoakEvidence& evidence, SoakFindings& findings) {
  const LinesByIdentity index = index_by_identity(evidence.lines);
  const auto answers = answers_by_attempt(evidence.lines);
  for (const SoakLine& l : evidence.lines) {
    ++findings.lines;
    if (l.kind != "impression") continue;
    ++findings.impression_lines;
    findings.reapplied_lines += l.store == "reapplied" ? 1 : 0;
    if (l.store != "unapplied") continue;
    ++findings.unapplied_lines;
    const auto answer = answers.find({l.node, l.attempt});
    // Subtracted on the answer's side: a line after its log's last decision has no latest
    // write time (INT64_MAX), and an answer cannot be proved late against that.
    if (answer == answers.end() || answer->second - kKeptAfterMs > l.written_latest_ms) {
      count_kept(evidence.faults, l, findings);
    }
  }
  for (const SoakDecision& d : evidence.record.decisions) {
    for (const ServedAd& s : d.served) {
      const auto found = index.find(s.identity);
      if (found == index.end() || found->second.decision == nullptr) {
        (killed_right_after(evidence.faults, d.call) ? findings.decision_lines_lost_at_kill : findings.decision_lines_lost)
            .add(call_text("decision", d.user, d.call) + ", ad " + std::to_string(s.ad) + " identity " + s.identity);
      }
    }
  }
  const auto acked = acknowledged(evidence.record);
  findings.impressions_acknowledged = acked.size();
  // Identities with a call left unanswered because its node was killed while it was out.
  std::unordered_set<std::string> cut_by_a_kill;
  for (const SoakImpressionCall& c : evidence.record.impressions) {
    if (c.call.status != 0) continue;
    for (const FaultRecord& f : evidence.faults) {
      if (f.kind == FaultKind::kNodeKilled && f.target == c.call.node && c.call.sent_ms <= f.start_ms &&
          f.start_ms <= c.call.answered_ms) {
        cut_by_a_kill.insert(evidence.record.decisions[c.decision].served[c.served].identity);
      }
    }
  }
  for (const auto& [identity, decision] : acked) {
    const auto found = index.find(identity);
    const std::string who = identity + " (user " + decision->user + ")";
    if (found == index.end() || found->second.impressions.empty()) {
      findings.lost_no_line.add(who + (found == index.end() ? "" : describe(found->second)));
      continue;
    }
    const IdentityLines& lines = found->second;
    if (lines.counted.empty()) {
      // The store counted the attempt of a node killed before its answer came back (its
      // line died with it): the other nodes' calls are repeats (docs/cluster.md "What a
      // failover can still cost"). Anything else is a loss.
      (cut_by_a_kill.contains(identity) ? findings.never_counted_at_node_kill : findings.lost_never_counted)
          .add(who + describe(lines));
      continue;
    }
    const int slot = user_slot(decision->user);
    if (lines.counted.size() > 1) {
      // Counted again after a failover lost the first count (the store forgot the
      // identity): the first count written before the fault healed, the second after the
      // fault began. A failover loses what the old primary took and never replicated, what
      // it takes when resumed before it learns it was replaced, and what a replica promoted
      // before its first sync completed took until that sync's data replaced it.
      const FaultRecord* failover = failover_after(evidence.faults, slot, lines.counted[0]->written_earliest_ms,
                                                   lines.counted[1]->written_latest_ms);
      const bool blamed = failover != nullptr && !restart_resend_signature(lines);
      findings.doubled_restart_resend += !blamed && restart_resend_signature(lines) ? 1 : 0;
      (blamed ? findings.doubled_after_failover : findings.doubled)
          .add(who + " counted " + std::to_string(lines.counted.size()) + " times" +
               (restart_resend_signature(lines) ? " (one attempt answered twice: re-sent after its answer)" : "") +
               (blamed ? " after " + describe(*failover) : "") + ":" + describe(lines));
      continue;
    }
    ++findings.counted_once;
    if (evidence.identities_in_store.contains(identity)) continue;
    // Counted once in the logs and gone from the store: a write a failover lost (a repeat
    // of its URL from then on would count it again), or one lost otherwise.
    const FaultRecord* failover = failover_after(evidence.faults, slot, lines.counted[0]->written_earliest_ms, INT64_MAX);
    (failover ? findings.store_lost_after_failover : findings.store_lost_unattributed)
        .add(who + (failover ? " after " + describe(*failover) : "") + describe(lines));
  }
}

void check_processes(const SoakEvidence& evidence, SoakFindings& findings) {
  for (const FaultRecord& f : evidence.faults) {
    if (f.kind == FaultKind::kNodeTerminated) ++findings.graceful_stops;
    if (!f.exit) continue;
    const bool expected = f.kind == FaultKind::kNodeKilled ? f.exit->signal == SIGKILL : f.exit->code == 0;
    if (!expected) findings.crashes.add("node" + std::to_string(f.target) + " stopped by " +
                                        std::string(fault_name(f.kind)) + ": " + f.exit->describe());
  }
  for (size_t n = 0; n < evidence.final_exits.size(); ++n) {
    ++findings.graceful_stops;
    if (n < evidence.ended_before_final_stop.size() && evidence.ended_before_final_stop[n]) {
      findings.crashes.add("node" + std::to_string(n) + " had ended before the final stop");
    }
    const auto& exit = evidence.final_exits[n];
    if (!exit || exit->code != 0) {
      findings.crashes.add("node" + std::to_string(n) + " at the final SIGTERM: " +
                           (exit ? exit->describe() : std::string("still running")));
    }
  }
  for (const FaultRecord& f : evidence.faults) {
    if (!f.error.empty()) findings.faults_not_healed.add(std::string(fault_name(f.kind)) + " did not heal: " + f.error);
  }
}

SoakFindings check_soak(const SoakEvidence& evidence) {
  SoakFindings findings;
  check_answers(evidence, findings);
  check_counting(evidence, findings);
  check_caps(evidence, findings);
  check_processes(evidence, findings);
  return findings;
}

}  // namespace integration
