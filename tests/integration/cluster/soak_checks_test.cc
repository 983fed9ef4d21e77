// The soak's checks on made-up evidence: each finds what it names and nothing else, so a
// soak's figures can be trusted to be the server's and not the checker's.
#include <cstdint>
#include <signal.h>

#include "gtest/gtest.h"
#include "tests/integration/cluster/soak_checks.h"
#include "tests/integration/cluster/soak_index.h"

namespace integration {
namespace {

constexpr int64_t kT0 = 1'800'000'000'000;  // Unix milliseconds

// The evidence of one user's decisions and impressions, built call by call.
class Story {
 public:
  // A decision on node serving ad with this identity at t, its impression answered 204 at t + 1.
  void served(uint32_t node, uint64_t ad, const std::string& identity, int64_t t, bool acknowledged = true) {
    SoakDecision d;
    d.user = "u";
    d.call = {node, t, t, 200, false, ""};
    d.served.push_back({ad, identity});
    evidence.record.decisions.push_back(d);
    if (acknowledged) {
      evidence.record.impressions.push_back({evidence.record.decisions.size() - 1, 0, {node, t + 1, t + 1, 204, false, ""}});
    }
    line(node, "decision", ad, identity, t, t);
  }
  // An impression line written at written_ms.
  void impression(uint32_t node, uint64_t ad, const std::string& identity, int64_t time_ms, int64_t written_ms,
                  bool duplicate = false, std::string store = "", std::string attempt = "") {
    SoakLine& l = line(node, "impression", ad, identity, time_ms, written_ms);
    l.duplicate = duplicate;
    l.store = std::move(store);
    l.attempt = std::move(attempt);
  }
  SoakFindings check() { return check_soak(evidence); }

  SoakEvidence evidence;

 private:
  SoakLine& line(uint32_t node, const char* kind, uint64_t ad, const std::string& identity, int64_t time_ms,
                 int64_t written_ms) {
    SoakLine l;
    l.node = node;
    l.seq = evidence.lines.size();
    l.time_ms = time_ms;
    l.written_earliest_ms = written_ms;
    l.written_latest_ms = written_ms;
    l.kind = kind;
    l.ad = ad;
    l.user = "u";
    l.identity = identity;
    evidence.lines.push_back(l);
    evidence.identities_in_store.insert(identity);
    return evidence.lines.back();
  }
};

FaultRecord node_killed(uint32_t node, int64_t start_ms) {
  FaultRecord f;
  f.kind = FaultKind::kNodeKilled;
  f.target = node;
  f.start_ms = start_ms;
  f.healed_ms = start_ms + 900;
  return f;
}

FaultRecord failover_of_every_slot(int64_t start_ms, int64_t healed_ms) {
  FaultRecord f;
  f.kind = FaultKind::kPrimaryKilled;
  f.start_ms = start_ms;
  f.healed_ms = healed_ms;
  f.failed_over = true;
  f.slots = {{0, 16383}};
  return f;
}

TEST(SoakChecks, AnImpressionCountedOnceIsNeitherLostNorDoubled) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.counted_once, 1u);
  EXPECT_EQ(f.lost_no_line.count + f.lost_never_counted.count + f.doubled.count, 0u);
}

TEST(SoakChecks, AnAcknowledgedImpressionWithoutALineIsLost) {
  Story s;
  s.served(0, 3, "a", kT0);
  EXPECT_EQ(s.check().lost_no_line.count, 1u);
}

TEST(SoakChecks, AnAdServedInA200WithoutItsDecisionLineIsLost) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2);
  s.evidence.lines.erase(s.evidence.lines.begin());  // the decision line
  const SoakFindings f = s.check();
  EXPECT_EQ(f.decision_lines_lost.count, 1u);
  EXPECT_EQ(f.counted_once, 1u);
}

TEST(SoakChecks, AnAcknowledgedImpressionWithOnlyDuplicateLinesWasNeverCounted) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2, true);
  EXPECT_EQ(s.check().lost_never_counted.count, 1u);
}

TEST(SoakChecks, AnImpressionNeverAcknowledgedIsNotLost) {
  Story s;
  s.served(0, 3, "a", kT0, false);
  EXPECT_EQ(s.check().lost_no_line.count, 0u);
}

TEST(SoakChecks, AnUnappliedLineThenItsReappliedLineCountOnce) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 30, false, "unapplied");
  s.impression(1, 3, "a", kT0 + 1, kT0 + 900, false, "reapplied");
  EXPECT_EQ(s.check().counted_once, 1u);
}

TEST(SoakChecks, OnlyAttemptsNotAnsweredWithinTheDeadlineAreCountedAsKept) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 1, false, "unapplied", "s1");
  s.impression(1, 3, "a", kT0 + 1, kT0 + 3, false, "reapplied", "s1");  // answered in 2 ms
  s.served(0, 3, "b", kT0 + 10);
  s.impression(1, 3, "b", kT0 + 11, kT0 + 11, false, "unapplied", "s2");
  s.impression(1, 3, "b", kT0 + 11, kT0 + 1500, false, "reapplied", "s2");  // kept, applied a retry later
  s.served(0, 3, "c", kT0 + 20);
  s.impression(1, 3, "c", kT0 + 21, kT0 + 21, false, "unapplied", "s3");  // never answered
  const SoakFindings f = s.check();
  EXPECT_EQ(f.unapplied_lines, 3u);
  EXPECT_EQ(f.unapplied_no_primary_fault, 2u) << "b and c were kept; a was answered in time";
}

TEST(SoakChecks, AnAnsweredLineAfterItsLogsLastDecisionIsNotCountedAsKept) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 1, false, "unapplied", "s1");
  s.evidence.lines.back().written_latest_ms = INT64_MAX;  // no decision line after it
  s.impression(1, 3, "a", kT0 + 1, kT0 + 3, false, "reapplied", "s1");
  const SoakFindings f = s.check();
  EXPECT_EQ(f.unapplied_lines, 1u);
  EXPECT_EQ(f.unapplied_no_primary_fault + f.unapplied_other_primary_faulted + f.unapplied_own_primary_faulted, 0u)
      << "answered, and nothing bounds its write: not provably late";
}

TEST(SoakChecks, TwoCallsOfOneImpressionOnANodeCountedTwiceAcrossAFailoverAreBlamedOnIt) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 1, false, "unapplied", "s1");
  s.impression(1, 3, "a", kT0 + 1, kT0 + 900, false, "reapplied", "s1");
  s.impression(1, 3, "a", kT0 + 2, kT0 + 2, false, "unapplied", "s2");
  s.impression(1, 3, "a", kT0 + 2, kT0 + 2500, false, "reapplied", "s2");  // the new primary forgot s1's count
  s.evidence.faults.push_back(failover_of_every_slot(kT0 + 2000, kT0 + 4000));
  const SoakFindings f = s.check();
  EXPECT_EQ(f.doubled.count, 0u);
  EXPECT_EQ(f.doubled_restart_resend, 0u) << "two attempts, each answered once";
  EXPECT_EQ(f.doubled_after_failover.count, 1u);
}

TEST(SoakChecks, ANodeAnsweringOneAttemptTwiceIsDoubledWhateverFailedOver) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 30, false, "unapplied", "s1");
  s.impression(1, 3, "a", kT0 + 2, kT0 + 30, false, "unapplied", "s2");
  s.impression(1, 3, "a", kT0 + 1, kT0 + 900, false, "reapplied", "s1");
  s.impression(1, 3, "a", kT0 + 2, kT0 + 900, true, "reapplied", "s2");
  s.impression(1, 3, "a", kT0 + 1, kT0 + 5000, false, "reapplied", "s1");  // s1 re-sent at a restart
  s.evidence.faults.push_back(failover_of_every_slot(kT0 + 2000, kT0 + 4000));
  const SoakFindings f = s.check();
  EXPECT_EQ(f.doubled.count, 1u);
  EXPECT_EQ(f.doubled_restart_resend, 1u);
  EXPECT_EQ(f.doubled_after_failover.count, 0u);
}

TEST(SoakChecks, NeverCountedWhileACallOfItWasCutByItsNodesKillIsReportedApart) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.evidence.record.impressions.push_back({0, 0, {2, kT0 + 1, kT0 + 9, 0, true, "reset"}});
  s.evidence.faults.push_back(node_killed(2, kT0 + 5));
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2, true);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.lost_never_counted.count, 0u);
  EXPECT_EQ(f.never_counted_at_node_kill.count, 1u);
}

TEST(SoakChecks, NeverCountedWithACallRefusedByANodeAlreadyDownIsLost) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.evidence.record.impressions.push_back({0, 0, {2, kT0 + 10, kT0 + 11, 0, true, "refused"}});
  s.evidence.faults.push_back(node_killed(2, kT0 + 5));
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2, true);
  EXPECT_EQ(s.check().lost_never_counted.count, 1u);
}

TEST(SoakChecks, ADecisionLineLostWhenItsNodeWasKilledRightAfterTheReplyIsReportedApart) {
  Story s;
  SoakDecision d;
  d.user = "u";
  d.call = {1, kT0, kT0 + 1, 200, false, ""};
  d.served.push_back({3, "a"});
  s.evidence.record.decisions.push_back(d);
  s.evidence.faults.push_back(node_killed(1, kT0 + 2));
  SoakFindings f = s.check();
  EXPECT_EQ(f.decision_lines_lost.count, 0u);
  EXPECT_EQ(f.decision_lines_lost_at_kill.count, 1u);
  s.evidence.faults.clear();
  f = s.check();
  EXPECT_EQ(f.decision_lines_lost.count, 1u) << "without a kill, a lost line fails";
}

TEST(SoakChecks, ACountTakenDuringAFailoverAndCountedAgainIsReportedApart) {
  // A replica promoted before its first sync completed loses what it took until that data
  // replaced it: the first count written inside the fault, the second after.
  Story s;
  s.served(0, 3, "a", kT0);
  s.evidence.faults.push_back(failover_of_every_slot(kT0 - 1000, kT0 + 3000));
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2);
  s.impression(2, 3, "a", kT0 + 10, kT0 + 11);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.doubled.count, 0u);
  EXPECT_EQ(f.doubled_after_failover.count, 1u);
}

TEST(SoakChecks, ACountLostAtAFailoverAndCountedAgainIsReportedApart) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2);
  s.evidence.faults.push_back(failover_of_every_slot(kT0 + 3, kT0 + 3000));
  s.impression(2, 3, "a", kT0 + 4000, kT0 + 4001);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.doubled.count, 0u);
  EXPECT_EQ(f.doubled_after_failover.count, 1u);
}

TEST(SoakChecks, AnIdentityTheStoreForgotWithoutAFailoverFails) {
  Story s;
  s.served(0, 3, "a", kT0);
  s.impression(1, 3, "a", kT0 + 1, kT0 + 2);
  s.evidence.identities_in_store.clear();
  EXPECT_EQ(s.check().store_lost_unattributed.count, 1u);
}

// Ad 2 is capped at 1 a day: a second serve is past the cap.
TEST(SoakChecks, AServePastTheCapWhileTheEarlierImpressionWaitsUnappliedOnAnotherNodeIsAllowed) {
  Story s;
  s.served(0, 2, "a", kT0);
  s.impression(1, 2, "a", kT0 + 1, kT0 + 30, false, "unapplied");
  s.served(2, 2, "b", kT0 + 100);
  s.impression(1, 2, "a", kT0 + 1, kT0 + 900, false, "reapplied");
  s.impression(0, 2, "b", kT0 + 101, kT0 + 102);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.past_cap_allowed.count, 1u);
  EXPECT_EQ(f.past_cap_not_allowed.count, 0u);
  EXPECT_EQ(f.users_past_cap.count, 1u);
}

TEST(SoakChecks, AServePastTheCapByTheNodeHoldingTheUnappliedImpressionIsNotAllowed) {
  Story s;
  s.served(0, 2, "a", kT0);
  s.impression(1, 2, "a", kT0 + 1, kT0 + 30, false, "unapplied");
  s.served(1, 2, "b", kT0 + 100);
  s.impression(1, 2, "a", kT0 + 1, kT0 + 900, false, "reapplied");
  const SoakFindings f = s.check();
  EXPECT_EQ(f.past_cap_not_allowed.count, 1u);
  EXPECT_EQ(f.not_allowed_impressions_by_state.at("unapplied_same_node"), 1u);
}

TEST(SoakChecks, AServePastTheCapAfterTheEarlierImpressionWasReappliedIsNotAllowed) {
  Story s;
  s.served(0, 2, "a", kT0);
  s.impression(1, 2, "a", kT0 + 1, kT0 + 30, false, "unapplied");
  s.impression(1, 2, "a", kT0 + 1, kT0 + 50, false, "reapplied");
  s.served(2, 2, "b", kT0 + 100);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.past_cap_not_allowed.count, 1u);
  EXPECT_EQ(f.not_allowed_impressions_by_state.at("visible"), 1u);
}

TEST(SoakChecks, AServePastTheCapWhoseEarlierCountAFailoverLostIsReportedApart) {
  Story s;
  s.served(0, 2, "a", kT0);
  s.impression(1, 2, "a", kT0 + 1, kT0 + 2);
  s.evidence.faults.push_back(failover_of_every_slot(kT0 + 3, kT0 + 3000));
  s.served(2, 2, "b", kT0 + 4000);
  s.evidence.identities_in_store.erase("a");
  const SoakFindings f = s.check();
  EXPECT_EQ(f.past_cap_after_failover.count, 1u);
  EXPECT_EQ(f.past_cap_not_allowed.count, 0u);
}

TEST(SoakChecks, ACappedServeBelowTheCapIsNothing) {
  Story s;
  s.served(0, 1, "a", kT0);  // ad 1: 2 an hour
  s.impression(1, 1, "a", kT0 + 1, kT0 + 2);
  s.served(2, 1, "b", kT0 + 100);
  s.impression(1, 1, "b", kT0 + 101, kT0 + 102);
  const SoakFindings f = s.check();
  EXPECT_EQ(f.past_cap_allowed.count + f.past_cap_not_allowed.count + f.users_past_cap.count, 0u);
}

TEST(SoakChecks, NoReplyFromANodeTakenDownIsUnansweredAtAFaultAndFromALiveNodeAFailure) {
  Story s;
  s.served(0, 3, "a", kT0, false);
  s.evidence.record.impressions.push_back({0, 0, {1, kT0 + 1, kT0 + 2, 0, true, "refused"}});
  s.evidence.record.impressions.push_back({0, 0, {2, kT0 + 1, kT0 + 2, 0, false, "timed out"}});
  s.evidence.record.impressions.push_back({0, 0, {2, kT0 + 1, kT0 + 2, 500, false, ""}});
  const SoakFindings f = s.check();
  EXPECT_EQ(f.unanswered_at_fault, 1u);
  EXPECT_EQ(f.failed_on_live_node.count, 2u);
}

TEST(SoakChecks, ANodeStoppedWithSigtermExitingNonZeroCrashed) {
  Story s;
  FaultRecord stop;
  stop.kind = FaultKind::kNodeTerminated;
  stop.exit = ExitStatus{-1, SIGSEGV};
  s.evidence.faults.push_back(stop);
  s.evidence.final_exits = {ExitStatus{0, 0}, ExitStatus{1, 0}};
  s.evidence.ended_before_final_stop = {false, false};
  EXPECT_EQ(s.check().crashes.count, 2u);
}

}  // namespace
}  // namespace integration
