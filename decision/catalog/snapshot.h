#pragma once
// One immutable catalog: the validated records (model.h) plus their indexes (index.h).
// Published to the cores as std::shared_ptr<const CatalogSnapshot>; each core reads its own
// pointer and the snapshot is freed when the last core lets go of it.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "decision/catalog/index.h"
#include "decision/catalog/model.h"

namespace decision::catalog {

class CatalogSnapshot {
 public:
  // data must be valid, as load_catalog guarantees; builds the indexes.
  explicit CatalogSnapshot(CatalogData data);
  CatalogSnapshot(const CatalogSnapshot&) = delete;
  CatalogSnapshot& operator=(const CatalogSnapshot&) = delete;

  std::string_view revision() const { return data_.revision; }
  std::string_view default_language() const { return data_.default_language; }
  std::span<const Priority> priorities() const { return data_.priorities; }
  std::span<const Advertiser> advertisers() const { return data_.advertisers; }
  std::span<const Template> templates() const { return data_.templates; }
  std::span<const Placement> placements() const { return data_.placements; }
  std::span<const Ad> ads() const { return data_.ads; }
  const CatalogData& data() const { return data_; }
  const CatalogIndex& index() const { return index_; }

  // Look-ups by id (tracking tokens and VAST tags carry ids); nullptr when unknown.
  const Advertiser* find_advertiser(Id id) const;
  const Template* find_template(Id id) const;
  const Placement* find_placement(Id id) const;
  const Placement* find_placement(std::string_view key) const;
  std::optional<uint32_t> ad_index(Id id) const;
  const Ad* find_ad(Id id) const;

  struct CreativeRef {
    uint32_t ad_index = 0;
    uint32_t creative_index = 0;  // into Ad::creatives
  };
  std::optional<CreativeRef> find_creative(Id id) const;

 private:
  CatalogData data_;
  CatalogIndex index_;
  absl::flat_hash_map<Id, uint32_t> advertiser_by_id_;
  absl::flat_hash_map<Id, uint32_t> template_by_id_;
  absl::flat_hash_map<Id, uint32_t> placement_by_id_;
  absl::flat_hash_map<Id, uint32_t> ad_by_id_;
  absl::flat_hash_map<Id, CreativeRef> creative_by_id_;
};

}  // namespace decision::catalog
