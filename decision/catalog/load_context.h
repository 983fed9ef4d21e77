#pragma once
// What the validators share while one catalog loads: the records built so far, the ids and
// keys already claimed (uniqueness, reference resolution, "also at" in messages), and the
// error list. Internal to the loader.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "decision/catalog/json_reader.h"
#include "decision/catalog/loader.h"
#include "decision/catalog/model.h"

namespace decision::catalog::detail {

struct Claim {
  uint32_t index = 0;  // into the CatalogData vector of its kind
  std::string path;    // where it was first declared
};

struct LoadContext {
  explicit LoadContext(const LoadOptions& options) : options(options) {}

  const LoadOptions& options;
  ErrorList errors;
  CatalogData data;
  absl::flat_hash_map<std::string, Claim> priority_by_key;
  absl::flat_hash_map<Id, Claim> advertiser_by_id;
  absl::flat_hash_map<Id, Claim> template_by_id;
  absl::flat_hash_map<Id, Claim> placement_by_id;
  absl::flat_hash_map<Id, Claim> ad_by_id;
  absl::flat_hash_map<Id, Claim> creative_by_id;
};

// Records id for a record of kind at path. An id already taken is an error at path
// ("duplicate ad id 1001 (also at ads[0])") and returns false.
bool claim_id(absl::flat_hash_map<Id, Claim>& claims, Id id, uint32_t index,
              const std::string& path, std::string_view kind, ErrorList& errors);

// The claim for a referenced id, or nullptr with an error at path
// ("unknown advertiser id 43").
const Claim* resolve_id(const absl::flat_hash_map<Id, Claim>& claims, Id id,
                        const std::string& path, std::string_view kind, ErrorList& errors);

// A URL member: an absolute http(s) URL, or an error at its path; empty when absent.
std::string read_url(const ObjectReader& in, std::string_view key, Presence presence);

// Top level (loader.cc).
void read_catalog(const ObjectReader& root, LoadContext& context);
// validate_entities.cc
void read_priorities(const ObjectReader& root, LoadContext& context);
void read_advertisers(const ObjectReader& root, LoadContext& context);
void read_templates(const ObjectReader& root, LoadContext& context);
void read_placements(const ObjectReader& root, LoadContext& context);
// validate_ads.cc
void read_ads(const ObjectReader& root, LoadContext& context);
// validate_targeting.cc
void read_targeting(const ObjectReader& targeting, LoadContext& context, Targeting& out);
// validate_creatives.cc
void read_creatives(const ObjectReader& ad, Format format, LoadContext& context,
                    std::vector<Creative>& out);
// validate_video.cc
Video read_video(const ObjectReader& video);

}  // namespace decision::catalog::detail
