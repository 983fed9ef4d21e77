#include "decision/targeting/rules/targeting_rule.h"

#include <algorithm>

#include "decision/targeting/rules/daypart_rule.h"
#include "decision/targeting/rules/gdpr_territory.h"
#include "decision/targeting/rules/location_rule.h"

namespace decision::targeting {

namespace {
// Both sorted: one merge pass.
bool intersects(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j]) ++i; else ++j;
  }
  return false;
}

std::span<const uint8_t> address_bytes(const request::IpAddress& ip) {
  switch (ip.family) {
    case request::IpAddress::Family::kV4: return {ip.bytes.data(), 4};
    case request::IpAddress::Family::kV6: return {ip.bytes.data(), 16};
    case request::IpAddress::Family::kNone: break;
  }
  return {};
}
}  // namespace

size_t TargetingRule::widen(uint64_t id, std::span<uint64_t, geo::kMaxWidened> out) const {
  if (sources_.hierarchy != nullptr) return sources_.hierarchy->widen(id, out);
  out[0] = id;  // without the dumps an id stands only for itself
  return 1;
}

bool TargetingRule::names_gdpr_country(std::span<const uint64_t> ids) const {
  for (uint64_t id : ids) {
    std::array<uint64_t, geo::kMaxWidened> widened{};
    const size_t n = widen(id, widened);
    if (std::any_of(widened.begin(), widened.begin() + n, is_gdpr_country)) return true;
  }
  return false;
}

size_t TargetingRule::widen_sorted(std::span<const uint64_t> ids, std::span<uint64_t> out) const {
  size_t count = 0;
  for (uint64_t id : ids) {
    std::array<uint64_t, geo::kMaxWidened> widened{};
    const size_t n = widen(id, widened);
    for (size_t k = 0; k < n; ++k) out[count++] = widened[k];
  }
  std::sort(out.begin(), out.begin() + count);
  return std::unique(out.begin(), out.begin() + count) - out.begin();
}

void TargetingRule::begin_request(const request::DecisionRequest& request, int64_t now_s,
                                  bool destination_understood, const CustomPrograms& programs) {
  custom_.begin_request(request, programs);
  destination_understood_ = destination_understood;
  const std::span<const uint8_t> ip = address_bytes(request.placing_ip());
  geo::GeoIpRecord& record = ip_record_;
  record = {};
  if (sources_.geoip != nullptr && !ip.empty()) record = geoip_records_.lookup(*sources_.geoip, ip);

  ip_geo_count_ = 0;
  for (uint64_t id : {record.country_id, record.subdivision_id, record.city_id}) {
    if (id != 0) ip_geo_[ip_geo_count_++] = id;
  }
  std::sort(ip_geo_.begin(), ip_geo_.begin() + ip_geo_count_);

  // The zone dayparts read when they name none: user.timezone, else GeoIP's, else UTC.
  user_zone_ = absl::UTCTimeZone();
  user_zone_source_ = ZoneSource::kUtc;
  if (!request.user.timezone_name.empty()) {
    user_zone_ = request.user.time_zone;  // checked by the request reader
    user_zone_source_ = ZoneSource::kUserTimezone;
  } else if (!record.time_zone.empty()) {
    if (std::optional<absl::TimeZone> zone = zones_.find(record.time_zone)) {
      user_zone_ = *zone;
      user_zone_source_ = ZoneSource::kGeoIp;
    }
  }

  clocks_.reset(absl::FromUnixSeconds(now_s), user_zone_);

  const auto placements = request.placements();
  in_gdpr_territory_ = record.in_european_union || is_gdpr_country(record.country_id) ||
                       std::any_of(placements.begin(), placements.end(), [&](const auto& placement) {
                         return names_gdpr_country(placement.targeting.geo());
                       });
  const request::User& user = request.user;
  if (!user.id) {
    user_id_usable_ = false;
  } else if (user.gdpr == request::GdprConsent::kGranted) {
    user_id_usable_ = true;
  } else if (user.gdpr == request::GdprConsent::kRefused) {
    user_id_usable_ = false;
  } else if (user.gdpr == request::GdprConsent::kConsentString) {
    // A TC string speaks for itself, in the territory or not: a CMP that asked and was
    // refused purpose 1 is a refusal wherever the user is.
    user_id_usable_ = user.consent_string_purpose1;
  } else {
    user_id_usable_ = !in_gdpr_territory_;
  }
}

void TargetingRule::begin_placement(const request::PlacementRequest& placement) {
  const request::Targeting& targeting = placement.targeting;
  if (targeting.geo_count > 0) {
    geo_count_ = widen_sorted(targeting.geo(), geo_);
  } else {
    std::copy(ip_geo_.begin(), ip_geo_.begin() + ip_geo_count_, geo_.begin());
    geo_count_ = ip_geo_count_;
  }
  destination_count_ = destination_understood_ ? widen_sorted(targeting.destination(), destination_) : 0;
  points_ = targeting.location();
  custom_.begin_placement(targeting);
}

// One list of checks for deciding and explaining, inlined into both, so deciding pays
// nothing for the rule's name.
inline TargetingCheck TargetingRule::check(const catalog::Ad& ad, uint32_t ad_index) {
  const catalog::Targeting& rules = ad.targeting;
  if (!rules.geo.empty() && !intersects(rules.geo, {geo_.data(), geo_count_})) return TargetingCheck::kGeo;
  if (!rules.destination.empty() &&
      !intersects(rules.destination, {destination_.data(), destination_count_})) {
    return TargetingCheck::kDestination;
  }
  if (!rules.locations.empty() && !location_matches(rules.locations, points_)) return TargetingCheck::kLocation;
  if (!rules.dayparts.empty() && !dayparts_hold(rules.dayparts, clocks_)) return TargetingCheck::kDaypart;
  if (rules.custom && !custom_.holds(ad_index)) return TargetingCheck::kCustom;
  return TargetingCheck::kHolds;
}

bool TargetingRule::eligible(const catalog::Ad& ad, uint32_t ad_index) {
  return check(ad, ad_index) == TargetingCheck::kHolds;
}

TargetingCheck TargetingRule::first_failing(const catalog::Ad& ad, uint32_t ad_index) {
  return check(ad, ad_index);
}

}  // namespace decision::targeting
