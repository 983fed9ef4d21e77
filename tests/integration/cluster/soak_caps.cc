// The soak's check of caps. A decision that served a capped ad after the user's impressions
// of it had reached the cap (as the client saw them: answered 204 before the decision was
// sent, within the cap's window) is past the cap. What the logs say of each of those
// earlier impressions at the decision tells why:
//   visible              its counted line written before the decision was sent: the store had it;
//   lost_at_failover     counted, then its primary failed over before the decision and the
//                        store forgot it (its identity key gone, or counted again later);
//   unapplied_elsewhere  logged unapplied on another node and not yet reapplied at the
//                        decision's line: the documented bound allows the serve;
//   unapplied_same_node  the same, on the node that decided (it knew, and could count it);
//   racing               its counted (or reapplied) line written around the decision: between
//                        its send and its line, as far as the logs can tell;
//   in_flight            no line at all yet: answered 204, the store had not answered.
// "At the decision" is its line's time, compared with when each line was written (the
// bounds SoakLine keeps: a reapplied line carries its impression's time, not its own).
// The serve is allowed when the unapplied_elsewhere ones bring the count below the cap,
// after a failover when the lost ones do as well, and otherwise not allowed.
#include <algorithm>
#include <unordered_map>

#include "tests/integration/cluster/soak_checks.h"
#include "tests/integration/cluster/soak_index.h"

namespace integration {

namespace {

struct Acked {
  std::string identity;
  int64_t acked_ms = 0;
};

// The earliest 204 of each identity.
std::unordered_map<std::string, int64_t> first_acks(const SoakRecord& record) {
  std::unordered_map<std::string, int64_t> acks;
  for (const SoakImpressionCall& c : record.impressions) {
    if (c.call.status != 204) continue;
    const std::string& identity = record.decisions[c.decision].served[c.served].identity;
    auto [it, fresh] = acks.emplace(identity, c.call.answered_ms);
    if (!fresh) it->second = std::min(it->second, c.call.answered_ms);
  }
  return acks;
}

struct DecisionMoment {
  int64_t sent_ms = 0;
  int64_t line_ms = 0;  // the decision's line, or the reply's arrival when the line is missing
  uint32_t node = 0;
  int slot = 0;
};

std::string state_of(const SoakEvidence& evidence, const IdentityLines* lines, const std::string& identity,
                     const DecisionMoment& at) {
  if (lines == nullptr) return "in_flight";
  const SoakLine* counted = lines->counted.empty() ? nullptr : lines->counted[0];
  if (counted != nullptr && counted->written_latest_ms < at.sent_ms) {
    const FaultRecord* failover = failover_after(evidence.faults, at.slot, counted->written_earliest_ms, at.line_ms);
    const bool forgotten = failover != nullptr &&
                           (!evidence.identities_in_store.contains(identity) ||
                            (lines->counted.size() > 1 && lines->counted[1]->written_latest_ms >= failover->start_ms));
    return forgotten ? "lost_at_failover (" + describe(*failover) + ")" : "visible";
  }
  if (counted != nullptr && counted->written_earliest_ms <= at.line_ms) return "racing";
  for (const SoakLine* u : lines->unapplied) {
    if (u->written_earliest_ms <= at.line_ms && u->node != at.node) return "unapplied_elsewhere";
  }
  for (const SoakLine* u : lines->unapplied) {
    if (u->written_earliest_ms <= at.line_ms) return "unapplied_same_node";
  }
  return "in_flight";
}

// Counted lines of one (user, ad) past the cap within any window of it.
void check_counted_within_window(const std::vector<const SoakLine*>& counted, const SoakCap& cap,
                                 const std::string& user, SoakFindings& findings) {
  for (size_t i = 0; i < counted.size(); ++i) {
    size_t in_window = 0;
    for (size_t j = 0; j <= i; ++j) {
      in_window += counted[i]->time_ms - counted[j]->time_ms < cap.window_ms ? 1 : 0;
    }
    if (in_window > cap.impressions) {
      std::string example = user + " ad " + std::to_string(cap.ad) + ": " + std::to_string(counted.size()) +
                            " counted, cap " + std::to_string(cap.impressions) + ":";
      for (const SoakLine* l : counted) example += " " + l->identity + " t=" + std::to_string(l->time_ms);
      findings.users_past_cap.add(example);
      return;
    }
  }
}

// One serve past the cap: how each earlier impression stood at the decision, and so whether
// the bound allows it, a failover explains it, or neither.
void judge_serve(const SoakEvidence& evidence, const LinesByIdentity& index, const SoakCap& cap,
                 const std::string& user, const DecisionMoment& at, bool has_line,
                 const std::vector<const Acked*>& before, SoakFindings& findings) {
  std::map<std::string, size_t> states;
  std::string detail;
  for (const Acked* a : before) {
    const auto lines = index.find(a->identity);
    const IdentityLines* l = lines == index.end() ? nullptr : &lines->second;
    const std::string state = state_of(evidence, l, a->identity, at);
    ++states[state.substr(0, state.find(' '))];
    detail += "\n      earlier " + a->identity + " acked t=" + std::to_string(a->acked_ms) + " " + state +
              (l ? describe(*l) : "");
  }
  const std::string example = user + " ad " + std::to_string(cap.ad) + " served by node" + std::to_string(at.node) +
                              " sent t=" + std::to_string(at.sent_ms) +
                              (has_line ? " line t=" + std::to_string(at.line_ms) : " (no decision line)") + " after " +
                              std::to_string(before.size()) + " acknowledged:" + detail;
  const size_t left = before.size() - states["unapplied_elsewhere"];
  if (left < cap.impressions) {
    findings.past_cap_allowed.add(example);
  } else if (left - states["lost_at_failover"] < cap.impressions) {
    findings.past_cap_after_failover.add(example);
  } else {
    findings.past_cap_not_allowed.add(example);
    for (const auto& [state, n] : states) findings.not_allowed_impressions_by_state[state] += n;
  }
}

// One user's decisions, in the order the user's one client thread sent them, against one cap.
void check_serves(const SoakEvidence& evidence, const LinesByIdentity& index,
                  const std::unordered_map<std::string, int64_t>& acks, const SoakCap& cap, const std::string& user,
                  const std::vector<const SoakDecision*>& decisions, SoakFindings& findings) {
  const int slot = user_slot(user);
  std::vector<Acked> earlier;
  for (const SoakDecision* d : decisions) {
    for (const ServedAd& s : d->served) {
      if (s.ad != cap.ad) continue;
      // The impressions of the user's earlier decisions were answered before this one was
      // sent (one thread, one call after another), often within the same millisecond.
      std::vector<const Acked*> before;
      for (const Acked& a : earlier) {
        if (d->call.sent_ms - a.acked_ms < cap.window_ms) before.push_back(&a);
      }
      if (before.size() < cap.impressions) continue;
      const auto found = index.find(s.identity);
      const SoakLine* line = found != index.end() ? found->second.decision : nullptr;
      const DecisionMoment at{d->call.sent_ms, line ? line->time_ms : d->call.answered_ms,
                              line ? line->node : d->call.node, slot};
      judge_serve(evidence, index, cap, user, at, line != nullptr, before, findings);
    }
    for (const ServedAd& s : d->served) {
      const auto ack = acks.find(s.identity);
      if (s.ad == cap.ad && ack != acks.end()) earlier.push_back({s.identity, ack->second});
    }
  }
}

}  // namespace

void check_caps(const SoakEvidence& evidence, SoakFindings& findings) {
  const LinesByIdentity index = index_by_identity(evidence.lines);

  // Impressions counted per (user, ad) within each cap's window, each identity once: one
  // counted twice is the counting check's finding, not a serve past the cap.
  std::map<std::pair<std::string, uint64_t>, std::vector<const SoakLine*>> counted_by_user_ad;
  for (const auto& [identity, lines] : index) {
    if (lines.counted.empty()) continue;
    counted_by_user_ad[{lines.counted[0]->user, lines.counted[0]->ad}].push_back(lines.counted[0]);
  }
  const auto by_time = [](const SoakLine* a, const SoakLine* b) { return a->time_ms < b->time_ms; };
  for (auto& [user_ad, counted] : counted_by_user_ad) {
    std::sort(counted.begin(), counted.end(), by_time);
    for (const SoakCap& cap : soak_caps()) {
      if (cap.ad == user_ad.second) check_counted_within_window(counted, cap, user_ad.first, findings);
    }
  }

  std::map<std::string, std::vector<const SoakDecision*>> by_user;
  for (const SoakDecision& d : evidence.record.decisions) {
    if (d.call.status == 200) by_user[d.user].push_back(&d);
  }
  const auto acks = first_acks(evidence.record);
  for (auto& [user, decisions] : by_user) {
    // Recorded in the order they were sent already (a user is one thread's): kept so for
    // decisions sent within one millisecond.
    std::stable_sort(decisions.begin(), decisions.end(),
                     [](const SoakDecision* a, const SoakDecision* b) { return a->call.sent_ms < b->call.sent_ms; });
    for (const SoakCap& cap : soak_caps()) check_serves(evidence, index, acks, cap, user, decisions, findings);
  }
}

}  // namespace integration
