#include "tools/gen-catalog/catalog_generator.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/text_formats.h"
#include "http/json_writer.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"
#include "tools/gen-catalog/creative_writer.h"
#include "tools/gen-catalog/random_stream.h"
#include "tools/gen-catalog/targeting_writer.h"
#include "tools/gen-catalog/vocabulary.h"

namespace tools::gen_catalog {
namespace {

// Bounds on what one run builds in memory (a 5M-ad catalog is about 5 GB of text, far past
// what the loader accepts anyway: decision/catalog/limits.h kMaxCatalogBytes).
constexpr uint32_t kMaxAds = 5'000'000;
constexpr uint32_t kMaxPlacements = 1'000'000;
constexpr uint32_t kMaxAdvertisers = 1'000'000;
constexpr uint32_t kMaxTemplates = 1'000;
constexpr size_t kMaxLanguages = 32;
constexpr uint32_t kAdsPerAdvertiser = 50;

// Named random streams (stream_seed): one per independent part of the catalog.
constexpr uint64_t kCatalogStream = 0;
constexpr uint64_t kTargetingStream = 1;

struct Tier {
  std::string_view key;
  uint32_t weight;
};
constexpr Tier kTiers[] = {{"sponsorship", 100}, {"standard", 50}, {"house", 1}};
// Most ads are standard; sponsorships are few, house ads fill the gaps.
constexpr uint32_t kTierShares[] = {5, 85, 10};

constexpr uint64_t kAdWeightMax = 100;
constexpr double kExplicitNativeShare = 0.9;  // the rest leave "format" to its default
constexpr double kStyleShare = 0.6;           // the rest take their template's style
constexpr double kOffsetStartShare = 0.1;     // start written with +01:00 rather than Z
constexpr double kEndedShare = 0.05;          // ended in 2025: inactive from 2026 on
constexpr double kEndsIn2030Share = 0.15;
constexpr double kNullEndShare = 0.3;  // of open-ended flights: "end": null, not left out
constexpr double kTwoCapsShare = 0.3;
constexpr double kLegalNameShare = 0.9;
constexpr double kLogoShare = 0.9;

bool is_video_template(std::string_view key) { return key.starts_with("video_"); }

// Suffix for the round-th reuse of a fixed name: "", then " 2", " 3"...
std::string round_suffix(size_t round, std::string_view separator) {
  return round == 0 ? std::string() : absl::StrCat(runtime::av(separator), round + 1);
}

// FNV-1a of every option the revision does not spell out: catalogs that differ in any
// option differ in revision, which is what the service reports.
uint32_t options_fingerprint(const GeneratorOptions& o) {
  const std::string text = absl::StrCat(
      o.advertisers, "|", o.templates, "|", o.targeted_share, "|", o.capped_share, "|",
      o.video_share, "|", o.placements_per_ad_max, "|", absl::StrJoin(o.languages, ","));
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
  return static_cast<uint32_t>(hash ^ (hash >> 32));
}

std::string revision(const GeneratorOptions& o) {
  char fingerprint[9];
  std::snprintf(fingerprint, sizeof(fingerprint), "%08x", options_fingerprint(o));
  return absl::StrCat("gen-catalog-seed", o.seed, "-ads", o.ads, "-placements", o.placements, "-",
                      fingerprint, o.targeting ? "" : "-untargeted");
}

void write_priorities(http::JsonWriter& out) {
  out.key("priorities").begin_array();
  for (const Tier& tier : kTiers) {
    out.begin_object().key("key").string(tier.key).key("weight").number(uint64_t{tier.weight});
    out.end_object();
  }
  out.end_array();
}

void write_advertisers(http::JsonWriter& out, RandomStream& random, uint32_t count) {
  const std::span<const std::string_view> names = vocabulary::advertiser_names();
  out.key("advertisers").begin_array();
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t id = i + 1;
    const std::string name =
        absl::StrCat(runtime::av(names[i % names.size()]), round_suffix(i / names.size(), " "));
    out.begin_object().key("id").number(id).key("name").string(name);
    if (random.chance(kLegalNameShare)) {
      out.key("legalName")
          .string(absl::StrCat(name, " ", runtime::av(random.pick(vocabulary::legal_forms()))));
    }
    if (random.chance(kLogoShare)) {
      out.key("logoUrl").string(
          absl::StrCat("https://cdn.example.com/logos/advertiser-", id, ".png"));
    }
    out.end_object();
  }
  out.end_array();
}

// Ids of the native and of the video templates (1-based, in file order).
struct TemplateIds {
  std::vector<uint64_t> native;
  std::vector<uint64_t> video;
};

TemplateIds write_templates(http::JsonWriter& out, uint32_t count) {
  const std::span<const vocabulary::NamedTemplate> kinds = vocabulary::templates();
  TemplateIds ids;
  out.key("templates").begin_array();
  for (uint32_t i = 0; i < count; ++i) {
    const vocabulary::NamedTemplate& kind = kinds[i % kinds.size()];
    const uint64_t id = i + 1;
    out.begin_object().key("id").number(id);
    out.key("key").string(absl::StrCat(runtime::av(kind.key), round_suffix(i / kinds.size(), "_")));
    if (!kind.style.empty()) out.key("style").string(kind.style);
    out.end_object();
    (is_video_template(kind.key) ? ids.video : ids.native).push_back(id);
  }
  out.end_array();
  // With few templates one format may have none of its own: it shares the others'.
  if (ids.video.empty()) ids.video = ids.native;
  if (ids.native.empty()) ids.native = ids.video;
  return ids;
}

// "slot_0001": readable, sorted as text, at least four digits.
void write_placements(http::JsonWriter& out, uint32_t count) {
  const size_t digits = std::max<size_t>(4, std::to_string(count).size());
  out.key("placements").begin_array();
  std::string key;
  for (uint32_t i = 0; i < count; ++i) {
    const std::string number = std::to_string(i + 1);
    key.assign("slot_").append(digits - number.size(), '0').append(number);
    out.begin_object().key("id").number(uint64_t{i} + 1).key("key").string(key).end_object();
  }
  out.end_array();
}

// Everything the ads share while they are written.
struct AdWriter {
  const GeneratorOptions& options;
  uint32_t advertisers;
  TemplateIds templates;
  RandomStream& random;     // every draw but targeting
  RandomStream& targeting;  // targeting only
  CatalogStats& stats;
  uint64_t next_creative_id = 1;

  void write(http::JsonWriter& out, uint64_t ad_id);

 private:
  void write_placement_ids(http::JsonWriter& out);
  void write_flight(http::JsonWriter& out);
  void write_caps(http::JsonWriter& out);
  std::vector<std::string_view> ad_languages();
};

void AdWriter::write_placement_ids(http::JsonWriter& out) {
  const uint32_t most = std::min(options.placements_per_ad_max, options.placements);
  const auto count = static_cast<uint32_t>(random.between(1, most));
  stats.placement_links += count;
  out.key("placementIds").begin_array();
  for (uint32_t i : random.distinct(count, options.placements)) out.number(uint64_t{i} + 1);
  out.end_array();
}

// Most flights open-ended from 2025-01-01; some end in 2030; a few ended during 2025.
void AdWriter::write_flight(http::JsonWriter& out) {
  out.key("start").string(random.chance(kOffsetStartShare) ? "2025-01-01T00:00:00+01:00"
                                                           : "2025-01-01T00:00:00Z");
  char end[32];
  const double kind = random.unit();
  if (kind < kEndedShare) {
    std::snprintf(end, sizeof(end), "2025-%02u-01T00:00:00Z",
                  static_cast<unsigned>(random.between(2, 12)));
    out.key("end").string(end);
    ++stats.ended_ads;
  } else if (kind < kEndedShare + kEndsIn2030Share) {
    std::snprintf(end, sizeof(end), "2030-%02u-01T00:00:00Z",
                  static_cast<unsigned>(random.between(1, 12)));
    out.key("end").string(end);
  } else if (random.chance(kNullEndShare)) {
    out.key("end").null();
  }
}

// One cap, or a short and a long window together ("2 an hour, 10 a week").
void AdWriter::write_caps(http::JsonWriter& out) {
  if (!random.chance(options.capped_share)) return;
  ++stats.capped_ads;
  const auto write_cap = [&](const vocabulary::CapShape& cap) {
    out.begin_object().key("impressions").number(uint64_t{cap.impressions});
    out.key("windowSeconds").number(uint64_t{cap.window_s}).end_object();
  };
  out.key("frequencyCaps").begin_array();
  if (random.chance(kTwoCapsShare)) {
    write_cap(random.pick(vocabulary::short_caps()));
    write_cap(random.pick(vocabulary::long_caps()));
  } else {
    write_cap(random.pick(random.chance(0.5) ? vocabulary::short_caps() : vocabulary::long_caps()));
  }
  out.end_array();
}

// The default language and 0..N-1 of the others, in the order of the options.
std::vector<std::string_view> AdWriter::ad_languages() {
  const auto others = static_cast<uint32_t>(options.languages.size() - 1);
  const auto extra = static_cast<uint32_t>(random.below(uint64_t{others} + 1));
  std::vector<std::string_view> languages = {options.languages.front()};
  for (uint32_t i : random.distinct(extra, others)) languages.push_back(options.languages[i + 1]);
  return languages;
}

void AdWriter::write(http::JsonWriter& out, uint64_t ad_id) {
  out.begin_object().key("id").number(ad_id);
  const uint64_t advertiser_id = 1 + random.below(advertisers);
  out.key("advertiserId").number(advertiser_id);
  write_placement_ids(out);
  const bool video = random.chance(options.video_share);
  const std::vector<uint64_t>& template_ids = video ? templates.video : templates.native;
  out.key("templateId").number(random.pick(std::span<const uint64_t>(template_ids)));
  out.key("priority").string(kTiers[random.weighted(kTierShares)].key);
  out.key("weight").number(random.between(1, kAdWeightMax));
  if (video) {
    out.key("format").string("video");
    ++stats.video_ads;
  } else if (random.chance(kExplicitNativeShare)) {
    out.key("format").string("native");
  }
  if (random.chance(kStyleShare)) out.key("style").string(random.pick(vocabulary::ad_styles()));
  write_flight(out);
  write_caps(out);
  if (options.targeting && targeting.chance(options.targeted_share)) {
    write_targeting(out, targeting);
    ++stats.targeted_ads;
  }
  const std::vector<std::string_view> languages = ad_languages();
  const CreativeOwner owner{ad_id, advertiser_id, video, languages};
  stats.creatives += write_creatives(out, random, owner, next_creative_id);
  out.end_object();
}

// Measured at 100,000 ads with three languages: 1,150 bytes per native ad, 600 more per
// video ad. Reserving it up front spares the doubling copy of a 100 MB string.
size_t estimated_bytes(const GeneratorOptions& options, uint32_t advertisers) {
  const double per_ad = 1200 + 700 * options.video_share;
  return static_cast<size_t>(options.ads * per_ad) + size_t{options.placements} * 32 +
         size_t{advertisers} * 160 + 4096;
}

absl::Status invalid(std::string_view option, std::string_view rule) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", runtime::av(option), " ", runtime::av(rule)));
}

}  // namespace

uint32_t default_advertiser_count(uint32_t ads) { return std::max(1u, ads / kAdsPerAdvertiser); }

absl::Status check_options(const GeneratorOptions& o) {
  if (o.ads > kMaxAds) return invalid("ads", absl::StrCat("must be at most ", kMaxAds));
  if (o.placements < 1 || o.placements > kMaxPlacements) {
    return invalid("placements", absl::StrCat("must be in 1..", kMaxPlacements));
  }
  if (o.advertisers > kMaxAdvertisers) {
    return invalid("advertisers", absl::StrCat("must be at most ", kMaxAdvertisers));
  }
  if (o.templates < 1 || o.templates > kMaxTemplates) {
    return invalid("templates", absl::StrCat("must be in 1..", kMaxTemplates));
  }
  const std::pair<std::string_view, double> shares[] = {{"targeted-share", o.targeted_share},
                                                        {"capped-share", o.capped_share},
                                                        {"video-share", o.video_share}};
  for (const auto& [name, share] : shares) {
    if (!(share >= 0 && share <= 1)) return invalid(name, "must be a number in 0..1");
  }
  if (o.placements_per_ad_max < 1 ||
      o.placements_per_ad_max > decision::catalog::kMaxPlacementsPerAd) {
    return invalid("placements-per-ad-max",
                   absl::StrCat("must be in 1..", decision::catalog::kMaxPlacementsPerAd));
  }
  if (o.languages.empty() || o.languages.size() > kMaxLanguages) {
    return invalid("languages", absl::StrCat("must list 1..", kMaxLanguages, " language tags"));
  }
  for (size_t i = 0; i < o.languages.size(); ++i) {
    const std::string& tag = o.languages[i];
    // Written as the loader stores them, so "duplicate after normalisation" cannot happen.
    if (decision::catalog::normalize_language_tag(tag) != tag) {
      return invalid("languages", absl::StrCat("\"", tag,
                                               "\" is not a normalised language tag "
                                               "(such as en or pt-BR)"));
    }
    if (std::find(o.languages.begin(), o.languages.begin() + i, tag) != o.languages.begin() + i) {
      return invalid("languages", absl::StrCat("lists \"", tag, "\" twice"));
    }
  }
  return absl::OkStatus();
}

std::string generate_catalog(const GeneratorOptions& options) {
  CatalogStats stats;
  return generate_catalog(options, stats);
}

std::string generate_catalog(const GeneratorOptions& options, CatalogStats& stats) {
  DECISIOND_CHECK_MSG(check_options(options).ok(), "options not checked: check_options() first");
  const uint32_t advertisers =
      options.advertisers == 0 ? default_advertiser_count(options.ads) : options.advertisers;
  stats = CatalogStats{};
  stats.ads = options.ads;
  stats.placements = options.placements;
  stats.advertisers = advertisers;
  stats.templates = options.templates;

  std::string json;
  json.reserve(estimated_bytes(options, advertisers));
  http::JsonWriter out(json);
  RandomStream random(stream_seed(options.seed, kCatalogStream));
  RandomStream targeting(stream_seed(options.seed, kTargetingStream));

  out.begin_object();
  out.key("revision").string(revision(options));
  out.key("defaultLanguage").string(options.languages.front());
  write_priorities(out);
  write_advertisers(out, random, advertisers);
  TemplateIds template_ids = write_templates(out, options.templates);
  write_placements(out, options.placements);
  AdWriter ads{options, advertisers, std::move(template_ids), random, targeting, stats};
  out.key("ads").begin_array();
  for (uint32_t i = 0; i < options.ads; ++i) ads.write(out, uint64_t{i} + 1);
  out.end_array();
  out.end_object();
  json.push_back('\n');
  stats.bytes = json.size();
  return json;
}

}  // namespace tools::gen_catalog
