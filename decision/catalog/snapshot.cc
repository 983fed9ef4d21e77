#include "decision/catalog/snapshot.h"

#include <utility>

namespace decision::catalog {
namespace {

template <typename Record>
void index_ids(const std::vector<Record>& records, absl::flat_hash_map<Id, uint32_t>& by_id) {
  by_id.reserve(records.size());
  for (uint32_t i = 0; i < records.size(); ++i) by_id.emplace(records[i].id, i);
}

template <typename Record>
const Record* find(const std::vector<Record>& records,
                   const absl::flat_hash_map<Id, uint32_t>& by_id, Id id) {
  const auto it = by_id.find(id);
  return it == by_id.end() ? nullptr : &records[it->second];
}

}  // namespace

// data_ is declared before index_, so the index is built from the moved-in records.
CatalogSnapshot::CatalogSnapshot(CatalogData data) : data_(std::move(data)), index_(data_) {
  index_ids(data_.advertisers, advertiser_by_id_);
  index_ids(data_.templates, template_by_id_);
  index_ids(data_.placements, placement_by_id_);
  index_ids(data_.ads, ad_by_id_);
  uint32_t goals = 0;
  for (Ad& ad : data_.ads) {
    if (ad.delivery) ad.delivery->index = goals++;
  }
  for (uint32_t a = 0; a < data_.ads.size(); ++a) {
    const std::vector<Creative>& creatives = data_.ads[a].creatives;
    for (uint32_t c = 0; c < creatives.size(); ++c)
      creative_by_id_.emplace(creatives[c].id, CreativeRef{a, c});
  }
}

const Advertiser* CatalogSnapshot::find_advertiser(Id id) const {
  return find(data_.advertisers, advertiser_by_id_, id);
}

const Template* CatalogSnapshot::find_template(Id id) const {
  return find(data_.templates, template_by_id_, id);
}

const Placement* CatalogSnapshot::find_placement(Id id) const {
  return find(data_.placements, placement_by_id_, id);
}

const Placement* CatalogSnapshot::find_placement(std::string_view key) const {
  const std::optional<uint32_t> p = index_.placement_index(key);
  return p ? &data_.placements[*p] : nullptr;
}

std::optional<uint32_t> CatalogSnapshot::ad_index(Id id) const {
  const auto it = ad_by_id_.find(id);
  if (it == ad_by_id_.end()) return std::nullopt;
  return it->second;
}

const Ad* CatalogSnapshot::find_ad(Id id) const { return find(data_.ads, ad_by_id_, id); }

std::optional<CatalogSnapshot::CreativeRef> CatalogSnapshot::find_creative(Id id) const {
  const auto it = creative_by_id_.find(id);
  if (it == creative_by_id_.end()) return std::nullopt;
  return it->second;
}

}  // namespace decision::catalog
