#pragma once
// The tracking endpoint's view of the caps of an ad: the catalog this core serves.
#include <memory>

#include "decision/endpoint/served_catalog.h"
#include "tracking/impressions/ad_caps.h"

namespace service {

class CatalogAdCaps final : public tracking::impressions::AdCaps {
 public:
  explicit CatalogAdCaps(std::shared_ptr<const decision::endpoint::ServedCatalog> catalog)
      : catalog_(std::move(catalog)) {}
  void set_catalog(std::shared_ptr<const decision::endpoint::ServedCatalog> catalog) { catalog_ = std::move(catalog); }

  std::span<const caps::CapRule> caps_of(uint64_t ad_id) const override {
    const decision::catalog::Ad* ad = catalog_->snapshot->find_ad(ad_id);
    if (ad == nullptr) return {};
    return ad->frequency_caps;
  }

 private:
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog_;
};

}  // namespace service
