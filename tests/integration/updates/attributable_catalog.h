#pragma once
// Two catalogs whose replies can be told apart creative by creative, so that a decision
// answered during a swap can be attributed to the one catalog it came from. In catalog
// 'A' every ad id is 1'000'000 + i, its creative's id ten times that, its title "A <ad id>"
// and its advertiser's name "A advertiser <n>"; in catalog 'B' the same with 2'000'000 and
// "B". Both have placements "top" and "side", so one request is valid under either.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace integration::updates {

inline constexpr char kTopAndSideRequest[] =
    R"({"placements":[{"key":"top","count":3},{"key":"side","count":2}]})";

// letter: 'A' or 'B'. Ads alternate between the two placements; every tenth is in both.
std::string attributable_catalog_json(char letter, const std::string& revision, size_t ads);

// Where the creatives of one decision reply come from.
struct ReplyOrigin {
  std::set<char> catalogs;               // the letters seen; more than one: a mixed reply
  size_t creatives = 0;
  std::vector<std::string> impressions;  // each creative's impression token, in order
  std::string problem;  // non-empty: the body is no success envelope, or one creative's
                        // ids, title and advertiser name do not name the same catalog
};
ReplyOrigin origin_of(const std::string& decision_body);

}  // namespace integration::updates
