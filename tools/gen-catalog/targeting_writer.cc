#include "tools/gen-catalog/targeting_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "tools/gen-catalog/vocabulary.h"

namespace tools::gen_catalog {
namespace {

enum RuleKind : size_t { kGeo, kLocation, kCustom, kDayparts, kDestination, kRuleKinds };
// Geo is the most common rule in practice; destination only suits travel advertisers.
constexpr uint32_t kRuleShares[kRuleKinds] = {40, 15, 20, 15, 10};
// An ad with 1, 2 or 3 rules.
constexpr uint32_t kRuleCountShares[] = {60, 30, 10};

constexpr uint8_t kEveryDay = 0x7f;  // bit d: weekday d from Monday, as the loader numbers them
constexpr uint8_t kWeekdays = 0x1f;
constexpr uint8_t kWeekend = 0x60;
constexpr uint8_t kFriday = 1 << 4;
constexpr uint8_t kSaturday = 1 << 5;
constexpr std::string_view kDayNames[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

struct Window {
  uint8_t days;  // kEveryDay: "days" left out, which the loader reads as every day
  uint16_t start_minute;
  uint16_t end_minute;  // start_minute < end_minute <= 1440: windows never cross midnight
};

struct Schedule {
  Window windows[2];
  size_t count;
};

// Common schedules. Late Friday night is two windows, because the loader refuses one
// crossing midnight.
constexpr Schedule kSchedules[] = {
    {{{kWeekdays, 8 * 60, 20 * 60}}, 1},
    {{{kWeekend, 10 * 60, 22 * 60}}, 1},
    {{{kEveryDay, 18 * 60, 24 * 60}}, 1},
    {{{kWeekdays, 7 * 60, 9 * 60 + 30}, {kWeekdays, 17 * 60, 19 * 60 + 30}}, 2},
    {{{kFriday, 22 * 60, 24 * 60}, {kSaturday, 0, 2 * 60}}, 2},
};

// A share of location circles use the long spellings the loader also accepts.
constexpr double kLongSpellingShare = 0.1;
constexpr double kDaypartZoneShare = 0.3;
// Circle centres move up to this many degrees from the city, so circles differ.
constexpr double kJitterDegrees = 0.05;

void write_ids(http::JsonWriter& out, RandomStream& random, std::span<const uint64_t> ids,
               uint32_t count_max) {
  const auto n = static_cast<uint32_t>(ids.size());
  const auto count = static_cast<uint32_t>(random.between(1, std::min(count_max, n)));
  out.begin_array();
  for (uint32_t i : random.distinct(count, n)) out.number(ids[i]);
  out.end_array();
}

// Four decimals (about 11 m): what an operator writes, and short in the file.
double coordinate(double degrees) { return std::round(degrees * 1e4) / 1e4; }

void write_locations(http::JsonWriter& out, RandomStream& random) {
  const uint64_t count = random.between(1, 2);
  out.key("location").begin_array();
  for (uint64_t i = 0; i < count; ++i) {
    const vocabulary::Place& city = random.pick(vocabulary::cities());
    // The cities lie far from the poles and the antimeridian: the jitter keeps them in range.
    const double lat = coordinate(city.lat + (random.unit() - 0.5) * 2 * kJitterDegrees);
    const double lon = coordinate(city.lon + (random.unit() - 0.5) * 2 * kJitterDegrees);
    const uint64_t radius_km = random.between(1, 50);
    const bool long_spelling = random.chance(kLongSpellingShare);
    out.begin_object();
    out.key(long_spelling ? "latitude" : "lat").number(lat);
    out.key(long_spelling ? "longitude" : "lon").number(lon);
    out.key(long_spelling ? "radius" : "radiusKm").number(radius_km);
    out.end_object();
  }
  out.end_array();
}

// Any days, and a window of whole half hours.
Window random_window(RandomStream& random) {
  uint8_t days = 0;
  for (uint32_t d : random.distinct(static_cast<uint32_t>(random.between(1, 7)), 7)) {
    days = static_cast<uint8_t>(days | 1u << d);
  }
  const uint64_t start_slot = random.between(0, 47);
  const uint64_t end_slot = random.between(start_slot + 1, 48);
  return {days, static_cast<uint16_t>(start_slot * 30), static_cast<uint16_t>(end_slot * 30)};
}

void write_clock(http::JsonWriter& out, uint16_t minute) {
  char text[8];
  std::snprintf(text, sizeof(text), "%02u:%02u", minute / 60u, minute % 60u);
  out.string(text);
}

void write_window(http::JsonWriter& out, const Window& window, std::string_view zone) {
  out.begin_object();
  if (window.days != kEveryDay) {
    out.key("days").begin_array();
    for (size_t d = 0; d < 7; ++d) {
      if (window.days >> d & 1) out.string(kDayNames[d]);
    }
    out.end_array();
  }
  out.key("start");
  write_clock(out, window.start_minute);
  out.key("end");
  write_clock(out, window.end_minute);
  if (!zone.empty()) out.key("timezone").string(zone);
  out.end_object();
}

void write_dayparts(http::JsonWriter& out, RandomStream& random) {
  const size_t shape = random.below(std::size(kSchedules) + 1);
  Schedule schedule{};
  if (shape < std::size(kSchedules)) {
    schedule = kSchedules[shape];
  } else {
    schedule.windows[0] = random_window(random);
    schedule.count = 1;
  }
  const std::string_view zone =
      random.chance(kDaypartZoneShare) ? random.pick(vocabulary::time_zones()) : "";
  out.key("dayparts").begin_array();
  for (size_t i = 0; i < schedule.count; ++i) write_window(out, schedule.windows[i], zone);
  out.end_array();
}

}  // namespace

void write_targeting(http::JsonWriter& out, RandomStream& random) {
  bool chosen[kRuleKinds] = {};
  const size_t rules = 1 + random.weighted(kRuleCountShares);
  for (size_t n = 0; n < rules; ++n) {
    size_t kind = random.weighted(kRuleShares);
    while (chosen[kind]) kind = random.weighted(kRuleShares);
    chosen[kind] = true;
  }
  out.key("targeting").begin_object();
  if (chosen[kGeo]) {
    out.key("geo");
    write_ids(out, random, vocabulary::geo_ids(), 3);
  }
  if (chosen[kLocation]) write_locations(out, random);
  if (chosen[kCustom]) out.key("custom").string(random.pick(vocabulary::custom_expressions()));
  if (chosen[kDayparts]) write_dayparts(out, random);
  if (chosen[kDestination]) {
    out.key("destination");
    write_ids(out, random, vocabulary::destination_ids(), 2);
  }
  out.end_object();
}

}  // namespace tools::gen_catalog
