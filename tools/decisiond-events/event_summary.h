#pragma once
// decisiond-events summary: events counted by kind, by ad and by hour (UTC), the
// impressions that count across a cluster's logs (docs/events.md "Counting impressions"),
// their delivery by ad and hour, and the invalid traffic left out of them.
#include <cstdint>
#include <map>
#include <string>

#include "tracking/events/event_line.h"

namespace decisiond_events {

class EventSummary {
 public:
  void add(const tracking::events::ParsedEvent& event);
  void print(bool json) const;

 private:
  uint64_t events_ = 0;
  uint64_t duplicates_ = 0;  // impression calls of a token already counted
  // Impressions that count, across the logs of every node of a cluster: neither repeats nor
  // lines the shared cap store has not settled yet (docs/events.md "store").
  uint64_t counted_ = 0;
  uint64_t unapplied_ = 0;  // cluster mode: lines not yet settled by the store
  uint64_t reapplied_ = 0;  // cluster mode: lines that settled an unapplied one later
  // Tracking lines marked "invalid" (docs/invalid-traffic.md), by reason: counted nowhere.
  std::map<std::string, uint64_t> invalid_;
  // Impressions that count, by ad, then hour (UTC): what a flight delivered.
  std::map<uint64_t, std::map<std::string, uint64_t>> delivered_;
  std::map<std::string, uint64_t> kinds_;
  std::map<uint64_t, uint64_t> ads_;
  std::map<std::string, uint64_t> hours_;
};

}  // namespace decisiond_events
