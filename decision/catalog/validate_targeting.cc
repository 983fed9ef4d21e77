// An ad's targeting rules. An absent, null or empty rule is no rule: generators write
// "geo": [] for "anywhere", and an empty set that matched nothing would silently switch an
// ad off.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/load_context.h"
#include "decision/catalog/text_formats.h"
#include "runtime/absl_view.h"

namespace decision::catalog::detail {
namespace {

// Half the Earth's circumference already covers the globe; past a whole one is a typo.
constexpr double kMaxRadiusKm = 40075;

// GeoNames ids, sorted and unique for intersection at decision time.
std::vector<Id> read_geo_ids(const ObjectReader& in, std::string_view key) {
  std::vector<Id> ids;
  const std::optional<array> items = in.array_of(key, kOptional);
  if (!items) return ids;
  const std::string path = in.path_of(key);
  size_t i = 0;
  for (element item : *items) {
    if (const std::optional<Id> id = read_id(item, item_path(path, i), in.errors()))
      ids.push_back(*id);
    ++i;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

// lat/latitude, lon/longitude, radiusKm/radius: the spellings the request accepts too.
std::optional<double> read_coordinate(const ObjectReader& in,
                                      std::initializer_list<std::string_view> keys,
                                      Presence presence, double min, double max) {
  const std::optional<std::string_view> key = in.spelling(keys);
  if (!key) {
    if (presence == kRequired) in.error(*keys.begin(), "is required");
    return std::nullopt;
  }
  return in.number(*key, kRequired, min, max);
}

std::vector<GeoCircle> read_locations(const ObjectReader& in) {
  std::vector<GeoCircle> circles;
  for_each_object(in, "location", kOptional, [&](const ObjectReader& item, size_t) {
    const std::optional<double> lat =
        read_coordinate(item, {"lat", "latitude"}, kRequired, -90, 90);
    const std::optional<double> lon =
        read_coordinate(item, {"lon", "longitude"}, kRequired, -180, 180);
    const std::optional<double> radius =
        read_coordinate(item, {"radiusKm", "radius"}, kOptional, 0, kMaxRadiusKm);
    if (lat && lon) circles.push_back({*lat, *lon, radius.value_or(0)});
  });
  return circles;
}

std::optional<CustomExpression> read_custom(const ObjectReader& in, LoadContext& context) {
  const std::optional<std::string_view> source = in.text("custom", kOptional);
  if (!source) return std::nullopt;
  CustomExpression custom{std::string(*source), in.path_of("custom")};
  if (source->size() > kMaxCustomExpressionBytes) {
    in.error("custom", absl::StrCat("must be at most ", kMaxCustomExpressionBytes, " bytes"));
  } else if (context.options.check_custom) {
    if (const absl::Status status = context.options.check_custom(*source); !status.ok()) {
      in.error("custom", std::string(runtime::sv(status.message())));
    }
  }
  return custom;
}

uint8_t read_days(const ObjectReader& in) {
  const std::optional<array> days = in.array_of("days", kOptional);
  if (!days) return kEveryDay;  // no "days": every day
  const std::string path = in.path_of("days");
  if (days->size() == 0)
    in.error("days", "must name at least one day (or be left out for every day)");
  uint8_t mask = 0;
  size_t i = 0;
  for (element item : *days) {
    const std::string item_at = item_path(path, i++);
    const std::optional<std::string_view> name = read_string(item, item_at, in.errors());
    if (!name) continue;
    const std::optional<int> day = parse_weekday(*name);
    if (!day) {
      in.errors().add(item_at, "must be one of mon, tue, wed, thu, fri, sat, sun");
      continue;
    }
    mask = static_cast<uint8_t>(mask | 1u << *day);
  }
  return mask;
}

std::optional<uint16_t> read_minute(const ObjectReader& in, std::string_view key) {
  const std::optional<std::string_view> text = in.string(key, kRequired);
  if (!text) return std::nullopt;
  const std::optional<uint16_t> minute = parse_clock_minute(*text);
  if (!minute) in.error(key, "must be HH:MM in 00:00..24:00");
  return minute;
}

// "timezone" (the request's spelling) or "timeZone".
void read_daypart_zone(const ObjectReader& in, Daypart& daypart) {
  const std::optional<std::string_view> key = in.spelling({"timezone", "timeZone"});
  if (!key) return;
  const std::optional<std::string_view> name = in.string(*key, kRequired);
  if (!name) return;
  if (!is_iana_zone_name(*name) || !absl::LoadTimeZone(runtime::av(*name), &daypart.time_zone)) {
    in.error(*key, "must be an IANA time zone name such as Europe/Paris");
    return;
  }
  daypart.time_zone_name = std::string(*name);
}

std::vector<Daypart> read_dayparts(const ObjectReader& in) {
  std::vector<Daypart> dayparts;
  for_each_object(in, "dayparts", kOptional, [&](const ObjectReader& item, size_t) {
    Daypart daypart;
    daypart.days = read_days(item);
    const std::optional<uint16_t> start = read_minute(item, "start");
    const std::optional<uint16_t> end = read_minute(item, "end");
    if (start && end && *start >= *end) {
      item.error("end",
                 "must be after start (a daypart crossing midnight is written as two dayparts)");
    }
    daypart.start_minute = start.value_or(0);
    daypart.end_minute = end.value_or(0);
    read_daypart_zone(item, daypart);
    dayparts.push_back(std::move(daypart));
  });
  return dayparts;
}

}  // namespace

void read_targeting(const ObjectReader& in, LoadContext& context, Targeting& out) {
  out.geo = read_geo_ids(in, "geo");
  out.locations = read_locations(in);
  out.custom = read_custom(in, context);
  out.dayparts = read_dayparts(in);
  out.destination = read_geo_ids(in, "destination");
}

}  // namespace decision::catalog::detail
