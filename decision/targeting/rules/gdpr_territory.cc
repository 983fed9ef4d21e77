#include "decision/targeting/rules/gdpr_territory.h"

#include <algorithm>

namespace decision::targeting {

namespace {
constexpr GdprCountry kCountries[] = {
    {"AT", 2782113}, {"BE", 2802361}, {"BG", 732800},  {"HR", 3202326}, {"CY", 146669},
    {"CZ", 3077311}, {"DK", 2623032}, {"EE", 453733},  {"FI", 660013},  {"FR", 3017382},
    {"DE", 2921044}, {"GR", 390903},  {"HU", 719819},  {"IE", 2963597}, {"IT", 3175395},
    {"LV", 458258},  {"LT", 597427},  {"LU", 2960313}, {"MT", 2562770}, {"NL", 2750405},
    {"PL", 798544},  {"PT", 2264397}, {"RO", 798549},  {"SK", 3057568}, {"SI", 3190538},
    {"ES", 2510769}, {"SE", 2661886}, {"IS", 2629691}, {"LI", 3042058}, {"NO", 3144096},
    {"GB", 2635167},
};
}  // namespace

std::span<const GdprCountry> gdpr_countries() { return kCountries; }

bool is_gdpr_country(uint64_t geoname_id) {
  return std::any_of(std::begin(kCountries), std::end(kCountries),
                     [&](const GdprCountry& c) { return c.geoname_id == geoname_id; });
}

}  // namespace decision::targeting
