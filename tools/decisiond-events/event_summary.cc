#include "tools/decisiond-events/event_summary.h"

#include <cstdio>
#include <type_traits>

#include "absl/time/time.h"

namespace decisiond_events {

namespace {
std::string hour_of(int64_t time_ms) {
  return absl::FormatTime("%Y-%m-%dT%H:00Z", absl::FromUnixMillis(time_ms), absl::UTCTimeZone());
}

void json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
}

// {"<key>":n,...} in key order.
template <typename Key>
void json_counts(std::string& out, const std::map<Key, uint64_t>& counts) {
  out.push_back('{');
  bool first = true;
  for (const auto& [key, n] : counts) {
    if (!first) out.push_back(',');
    first = false;
    if constexpr (std::is_same_v<Key, std::string>) {
      json_string(out, key);
    } else {
      out += "\"" + std::to_string(key) + "\"";
    }
    out += ":" + std::to_string(n);
  }
  out.push_back('}');
}

}  // namespace

void EventSummary::add(const tracking::events::ParsedEvent& e) {
  ++events_;
  ++kinds_[std::string(e.kind)];
  const std::string hour = hour_of(e.time_ms);
  if (!e.invalid.empty()) ++invalid_[std::string(e.invalid)];
  if (e.kind == "impression") {
    if (e.duplicate) ++duplicates_;
    if (!e.duplicate && e.store != "unapplied" && e.invalid.empty()) {
      ++counted_;
      ++delivered_[e.ad][hour];
    }
    if (e.store == "unapplied") ++unapplied_;
    if (e.store == "reapplied") ++reapplied_;
  }
  ++ads_[e.ad];
  ++hours_[hour];
}

void EventSummary::print(bool json) const {
  // Every attempt at the shared store has one unapplied line, written ahead, and one
  // reapplied line once the store answers it: those without their answer yet.
  const uint64_t awaiting = unapplied_ > reapplied_ ? unapplied_ - reapplied_ : 0;
  if (!json) {
    std::printf("events %llu (duplicate impressions %llu)\n", static_cast<unsigned long long>(events_),
                static_cast<unsigned long long>(duplicates_));
    std::printf("impressions counted %llu (unapplied %llu, reapplied %llu, awaiting the store %llu)\nby kind:\n",
                static_cast<unsigned long long>(counted_), static_cast<unsigned long long>(unapplied_),
                static_cast<unsigned long long>(reapplied_), static_cast<unsigned long long>(awaiting));
    for (const auto& [k, n] : kinds_) std::printf("  %-28s %llu\n", k.c_str(), static_cast<unsigned long long>(n));
    std::printf("by ad:\n");
    for (const auto& [ad, n] : ads_) std::printf("  %-28llu %llu\n", static_cast<unsigned long long>(ad), static_cast<unsigned long long>(n));
    std::printf("by hour (UTC):\n");
    for (const auto& [h, n] : hours_) std::printf("  %-28s %llu\n", h.c_str(), static_cast<unsigned long long>(n));
    std::printf("impressions counted by ad and hour (UTC):\n");
    for (const auto& [ad, by_hour] : delivered_) {
      for (const auto& [h, n] : by_hour) {
        std::printf("  %-12llu %-15s %llu\n", static_cast<unsigned long long>(ad), h.c_str(),
                    static_cast<unsigned long long>(n));
      }
    }
    std::printf("invalid traffic (counted nowhere):\n");
    for (const auto& [why, n] : invalid_) std::printf("  %-28s %llu\n", why.c_str(), static_cast<unsigned long long>(n));
    return;
  }
  std::string out = "{\"events\":" + std::to_string(events_) + ",\"duplicate_impressions\":" + std::to_string(duplicates_) +
                    ",\"counted_impressions\":" + std::to_string(counted_) + ",\"unapplied_impressions\":" +
                    std::to_string(unapplied_) + ",\"reapplied_impressions\":" + std::to_string(reapplied_) +
                    ",\"awaiting_store_impressions\":" + std::to_string(awaiting) + ",\"kinds\":";
  json_counts(out, kinds_);
  out += ",\"ads\":";
  json_counts(out, ads_);
  out += ",\"hours\":";
  json_counts(out, hours_);
  // {"<ad>":{"<hour>":n,...},...}: ads in id order, hours in time order.
  out += ",\"delivered\":{";
  bool first = true;
  for (const auto& [ad, by_hour] : delivered_) {
    if (!first) out.push_back(',');
    first = false;
    out += "\"" + std::to_string(ad) + "\":";
    json_counts(out, by_hour);
  }
  out += "},\"invalid\":";
  json_counts(out, invalid_);
  out += "}\n";
  std::fputs(out.c_str(), stdout);
}

}  // namespace decisiond_events
