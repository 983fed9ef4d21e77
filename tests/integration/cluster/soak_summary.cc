// The soak's summary: the seed first (and how to replay it), then one line per check's
// figures, then the examples of every finding.
#include <sstream>

#include "tests/integration/cluster/soak_checks.h"

namespace integration {

namespace {

void examples(std::ostringstream& out, const char* name, const Finding& finding) {
  if (finding.count == 0) return;
  out << "[ soak ] " << name << ": " << finding.count << "\n";
  for (const std::string& e : finding.examples) out << "    " << e << "\n";
}

}  // namespace

std::string soak_summary(uint64_t seed, int64_t duration_ms, const SoakFindings& f) {
  std::ostringstream out;
  out << "[ soak ] seed " << seed << ", " << duration_ms / 1000 << " s of traffic (replay: DECISIOND_SOAK_SEED=" << seed
      << " DECISIOND_SOAK_SECONDS=" << duration_ms / 1000 << ")\n";
  out << "[ soak ] faults:";
  for (const auto& [kind, n] : f.faults_by_kind) out << " " << kind << " " << n;
  out << " (primaries failed over " << f.primaries_failed_over << ")\n";
  out << "[ soak ] decisions " << f.decisions << " (200: " << f.decisions_answered << "), impression calls "
      << f.impression_calls << " (204: " << f.impression_calls_answered << "), impressions acknowledged "
      << f.impressions_acknowledged << "\n";
  out << "[ soak ] answered: unanswered at a fault " << f.unanswered_at_fault << ", otherwise at a fault "
      << f.answered_otherwise_at_fault.count << ", failed on a live node " << f.failed_on_live_node.count << "\n";
  out << "[ soak ] lines " << f.lines << " (impressions " << f.impression_lines << ", unapplied " << f.unapplied_lines
      << ", reapplied " << f.reapplied_lines << ")\n";
  out << "[ soak ] kept (unapplied, no answer within the deadline) while the user's own primary was faulted "
      << f.unapplied_own_primary_faulted
      << ", while only another primary was " << f.unapplied_other_primary_faulted << ", with no primary faulted "
      << f.unapplied_no_primary_fault << "\n";
  out << "[ soak ] counted once " << f.counted_once << ", lost " << f.lost_no_line.count + f.lost_never_counted.count
      << " (no line " << f.lost_no_line.count << ", never counted " << f.lost_never_counted.count
      << "), never counted with its counting node killed " << f.never_counted_at_node_kill.count
      << ", decision lines lost " << f.decision_lines_lost.count << " (and " << f.decision_lines_lost_at_kill.count
      << " at a node kill right after the reply), doubled "
      << f.doubled.count << " (of them re-sent at a restart " << f.doubled_restart_resend << "; after a failover "
      << f.doubled_after_failover.count << ")\n";
  out << "[ soak ] identity keys the store forgot: after a failover " << f.store_lost_after_failover.count
      << ", unattributed " << f.store_lost_unattributed.count << "\n";
  out << "[ soak ] caps: user-ads counted past a cap " << f.users_past_cap.count << "; past-cap serves allowed "
      << f.past_cap_allowed.count << ", after a failover " << f.past_cap_after_failover.count << ", not allowed "
      << f.past_cap_not_allowed.count;
  if (!f.not_allowed_impressions_by_state.empty()) {
    out << " (their earlier impressions:";
    for (const auto& [state, n] : f.not_allowed_impressions_by_state) {
      if (n > 0) out << " " << state << " " << n;
    }
    out << ")";
  }
  out << "\n[ soak ] processes: graceful stops " << f.graceful_stops << ", crashes " << f.crashes.count
      << ", faults not healed " << f.faults_not_healed.count << "\n";
  examples(out, "failed on a live node", f.failed_on_live_node);
  examples(out, "answered otherwise at a fault", f.answered_otherwise_at_fault);
  examples(out, "lost, no line", f.lost_no_line);
  examples(out, "lost, never counted", f.lost_never_counted);
  examples(out, "never counted, its counting node killed", f.never_counted_at_node_kill);
  examples(out, "decision lines lost at a node kill right after the reply", f.decision_lines_lost_at_kill);
  examples(out, "decision lines lost", f.decision_lines_lost);
  examples(out, "doubled", f.doubled);
  examples(out, "doubled after a failover", f.doubled_after_failover);
  examples(out, "forgotten by the store after a failover", f.store_lost_after_failover);
  examples(out, "forgotten by the store, unattributed", f.store_lost_unattributed);
  examples(out, "user-ads counted past a cap", f.users_past_cap);
  examples(out, "past-cap serves allowed", f.past_cap_allowed);
  examples(out, "past-cap serves after a failover", f.past_cap_after_failover);
  examples(out, "past-cap serves not allowed", f.past_cap_not_allowed);
  examples(out, "crashes", f.crashes);
  examples(out, "faults not healed", f.faults_not_healed);
  return out.str();
}

}  // namespace integration
