#pragma once
// The generated catalog of video ads the conformance tests serve (docs/catalog.md, bounds
// from decision/catalog/validate_video.cc, validate_creatives.cc and limits.h): one ad per
// placement, so one decision names one ad, and every field a VAST document carries varied
// across the ads and filled with odd characters (odd_text.h). The records keep what was
// written, so a test can say what each document must hold.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conformance::vast {

struct MediaFileSpec {
  std::string url;
  std::string type;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t bitrate_kbps = 0;  // 0: not in the catalog
  std::string delivery;       // empty: not in the catalog, the loader infers it from type
  // "progressive" or "streaming", as the document must say.
  std::string served_delivery() const;
};

struct CompanionSpec {
  uint32_t width = 0;
  uint32_t height = 0;
  std::string image_url;
  std::string type;       // empty: not in the catalog
  std::string click_url;  // empty: not in the catalog
  std::string served_type;  // type, else what the image URL's extension says
};

struct VerificationSpec {
  std::string vendor_key;
  std::string url;
  bool script_spelling = false;  // vendorKey/scriptUrl/verificationParameters
  std::optional<std::string> parameters;
  std::optional<bool> browser_optional;
};

struct ContentItemSpec {
  std::string key;
  std::string value;
};

struct ContentsSpec {
  std::string language;
  std::vector<ContentItemSpec> items;
};

struct AdvertiserSpec {
  uint64_t id = 0;
  std::string name;
  std::optional<std::string> legal_name;
  std::optional<std::string> logo_url;
};

struct TemplateSpec {
  uint64_t id = 0;
  std::string key;
  std::optional<std::string> style;
};

struct PrioritySpec {
  std::string key;
  uint32_t weight = 0;
};

struct VideoAdSpec {
  uint64_t id = 0;
  uint64_t creative_id = 0;
  uint64_t placement_id = 0;
  std::string placement_key;
  size_t advertiser = 0;  // indexes into VideoCatalog's lists
  size_t template_index = 0;
  size_t priority = 0;
  std::optional<std::string> style;
  std::string delivery;  // vast_xml, vast_tag or json
  std::vector<MediaFileSpec> media_files;
  double duration_s = 0;
  std::optional<std::string> aspect_ratio;
  std::optional<std::string> skip_offset;
  std::vector<CompanionSpec> companions;
  std::vector<VerificationSpec> verifications;
  std::vector<ContentsSpec> contents;  // contents[0] is the default language, en
  std::optional<std::string> click_url;
  // The request's Accept-Language, and the contents it must select.
  std::string accept_language;
  size_t served_contents = 0;

  // What the document must say.
  std::string title() const;                       // AdTitle: "title", else the first item
  std::optional<std::string> description() const;  // Description: the "description" item
  std::optional<double> skip_offset_s() const;     // nullopt: not skippable
};

struct VideoCatalog {
  std::vector<PrioritySpec> priorities;
  std::vector<AdvertiserSpec> advertisers;
  std::vector<TemplateSpec> templates;
  std::vector<VideoAdSpec> ads;

  std::string json() const;
  const AdvertiserSpec& advertiser_of(const VideoAdSpec& ad) const { return advertisers[ad.advertiser]; }
  // The ad's style, else its template's, else "default".
  std::string style_of(const VideoAdSpec& ad) const;
};

// Deterministic for a seed. Structure (media file count and types, companions,
// verifications, skip offsets, durations, deliveries) cycles with the ad index so that
// every combination the issue lists appears; the odd text is drawn from the seed.
VideoCatalog generate_video_catalog(uint32_t seed, size_t ad_count);

// The JSON body of a decision request for the ad's placement.
std::string decision_request_json(const VideoAdSpec& ad);

}  // namespace conformance::vast
