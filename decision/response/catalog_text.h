#pragma once
// The catalog's text as the response writes it, escaped once per catalog instead of once
// per decision: each creative's `contents` array per language and each advertiser object,
// as finished JSON. A decision then copies bytes where it would otherwise scan every
// character of every served string for quotes, control characters and bad UTF-8.
//
// Built beside a snapshot (decision/endpoint/served_catalog.h) and never changed; views
// point into the snapshot, which must outlive it.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "decision/catalog/snapshot.h"

namespace decision::response {

class CatalogText {
 public:
  explicit CatalogText(const catalog::CatalogSnapshot& snapshot);
  CatalogText(const CatalogText&) = delete;
  CatalogText& operator=(const CatalogText&) = delete;

  struct CreativeText {
    // The creative's content languages in file order, and the `contents` array (JSON) of
    // each, parallel.
    std::span<const std::string_view> languages;
    std::span<const std::string> contents_json;
  };
  CreativeText creative(uint32_t ad_index, uint32_t creative_index) const;

  // {"id":"advertiser_<id>","name":...,"legalName":...,"logoUrl":...}; legalName and logoUrl
  // only when the catalog gives them.
  std::string_view advertiser_json(uint32_t advertiser_index) const {
    return advertiser_json_[advertiser_index];
  }

  size_t bytes() const { return bytes_; }

 private:
  std::vector<uint32_t> first_creative_;     // per ad: its first creative's slot
  std::vector<uint32_t> first_language_;     // per creative slot, plus an end sentinel
  std::vector<std::string_view> languages_;  // per language entry
  std::vector<std::string> contents_json_;   // per language entry
  std::vector<std::string> advertiser_json_;
  size_t bytes_ = 0;
};

}  // namespace decision::response
