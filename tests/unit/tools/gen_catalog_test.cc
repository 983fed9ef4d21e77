// tools/gen-catalog: what it generates loads, follows the options, and is a pure function
// of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "decision/catalog/loader.h"
#include "runtime/absl_view.h"
#include "tools/gen-catalog/catalog_generator.h"

namespace tools::gen_catalog {
namespace {

using decision::catalog::Ad;
using decision::catalog::CatalogSnapshot;
using decision::catalog::Creative;
using decision::catalog::Format;
using decision::catalog::FormatFilter;

constexpr int64_t k2026_01_01_s = 1'767'225'600;

GeneratorOptions sized(uint32_t ads, uint32_t placements) {
  GeneratorOptions options;
  options.ads = ads;
  options.placements = placements;
  return options;
}

// Loads the text, failing the test with the first errors when the loader refuses it.
std::shared_ptr<const CatalogSnapshot> load(const std::string& json) {
  decision::catalog::LoadResult result = decision::catalog::load_catalog(json);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.snapshot;
}

// The ads of the generated catalog for which has(ad) holds; SIZE_MAX (and a failure) when
// the loader refuses the catalog.
template <typename Predicate>
size_t count_ads(const GeneratorOptions& options, Predicate has) {
  const auto catalog = load(generate_catalog(options));
  if (catalog == nullptr) return SIZE_MAX;
  return std::count_if(catalog->ads().begin(), catalog->ads().end(), has);
}

bool targeted(const Ad& ad) { return !ad.targeting.empty(); }
bool capped(const Ad& ad) { return !ad.frequency_caps.empty(); }
bool video(const Ad& ad) { return ad.format == Format::kVideo; }

double share(size_t part, size_t whole) { return static_cast<double>(part) / whole; }

// Every field of an ad but its targeting, as text, so a mismatch prints readably.
std::string describe_untargeted(const Ad& ad) {
  std::string text = absl::StrCat(ad.id, " adv=", ad.advertiser_index, " tpl=", ad.template_index,
                                  " tier=", ad.tier_index, " w=", ad.weight,
                                  " fmt=", runtime::av(decision::catalog::format_name(ad.format)),
                                  " style=", ad.style, " flight=", ad.start_s, "..", ad.end_s,
                                  " placements=", absl::StrJoin(ad.placement_indexes, ","));
  for (const auto& cap : ad.frequency_caps)
    absl::StrAppend(&text, " cap=", cap.impressions, "/", cap.window_s);
  for (const Creative& c : ad.creatives) {
    absl::StrAppend(&text, " creative=", c.id, " click=", c.click_url,
                    " events=", absl::StrJoin(c.custom_events, ","));
    for (const auto& contents : c.contents) {
      absl::StrAppend(&text, " [", contents.language);
      for (const auto& item : contents.items)
        absl::StrAppend(&text, " ", item.key, "=", item.value, ":", item.type);
      absl::StrAppend(&text, "]");
    }
    for (const auto& v : c.verification)
      absl::StrAppend(&text, " verify=", v.vendor_key, v.url, v.parameters);
    if (c.video) {
      absl::StrAppend(
          &text, " video=", runtime::av(decision::catalog::delivery_name(c.video->delivery)), "/",
          c.video->duration_s, "/", c.video->aspect_ratio, "/", c.video->companions.size());
      for (const auto& file : c.video->media_files)
        absl::StrAppend(&text, " ", file.url, " ", file.type);
    }
  }
  return text;
}

TEST(GeneratedCatalog, LoadsWithoutErrorsWithTheRequestedCounts) {
  GeneratorOptions options = sized(3000, 40);
  options.templates = 7;
  options.video_share = 0.2;
  CatalogStats stats;
  const auto catalog = load(generate_catalog(options, stats));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads().size(), 3000u);
  EXPECT_EQ(catalog->placements().size(), 40u);
  EXPECT_EQ(catalog->advertisers().size(), 60u);  // ads / 50
  EXPECT_EQ(catalog->templates().size(), 7u);
  EXPECT_EQ(catalog->priorities().size(), 3u);
  EXPECT_EQ(catalog->default_language(), "en");
  EXPECT_EQ(stats.ads, 3000u);
  EXPECT_EQ(stats.advertisers, 60u);
  size_t creatives = 0;
  for (const Ad& ad : catalog->ads()) creatives += ad.creatives.size();
  EXPECT_EQ(stats.creatives, creatives);
}

TEST(GeneratedCatalog, AdvertisersCanBeSetAndAreAtLeastOne) {
  GeneratorOptions options = sized(10, 2);
  EXPECT_EQ(load(generate_catalog(options))->advertisers().size(), 1u);
  options.advertisers = 30;  // more advertisers than names: names repeat with a number
  const auto catalog = load(generate_catalog(options));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->advertisers().size(), 30u);
  std::set<std::string> names;
  for (const auto& advertiser : catalog->advertisers()) names.insert(advertiser.name);
  EXPECT_EQ(names.size(), 30u);
}

TEST(GeneratedCatalog, NoAdsIsAValidCatalog) {
  const auto catalog = load(generate_catalog(sized(0, 1)));
  ASSERT_NE(catalog, nullptr);
  EXPECT_TRUE(catalog->ads().empty());
}

TEST(GeneratedCatalog, SameSeedGivesTheSameBytes) {
  GeneratorOptions options = sized(500, 20);
  options.video_share = 0.3;
  EXPECT_EQ(generate_catalog(options), generate_catalog(options));
}

TEST(GeneratedCatalog, AnotherSeedGivesAnotherCatalog) {
  GeneratorOptions a = sized(500, 20);
  GeneratorOptions b = a;
  b.seed = 2;
  EXPECT_NE(generate_catalog(a), generate_catalog(b));
}

// The benchmark's "same catalog without targeting": only the targeting objects go.
TEST(GeneratedCatalog, WithoutTargetingTheAdsAreTheSameButUntargeted) {
  GeneratorOptions options = sized(2000, 30);
  options.video_share = 0.2;
  const auto with_targeting = load(generate_catalog(options));
  options.targeting = false;
  const auto without_targeting = load(generate_catalog(options));
  ASSERT_NE(with_targeting, nullptr);
  ASSERT_NE(without_targeting, nullptr);
  ASSERT_EQ(with_targeting->ads().size(), without_targeting->ads().size());
  size_t targeted_ads = 0;
  for (size_t i = 0; i < with_targeting->ads().size(); ++i) {
    const Ad& with = with_targeting->ads()[i];
    const Ad& without = without_targeting->ads()[i];
    ASSERT_EQ(describe_untargeted(with), describe_untargeted(without));
    EXPECT_TRUE(without.targeting.empty()) << "ad " << without.id;
    targeted_ads += targeted(with);
  }
  EXPECT_GT(targeted_ads, 0u);
  EXPECT_NE(with_targeting->revision(), without_targeting->revision());
}

TEST(GeneratedCatalog, TargetedShareIsFollowedWithEveryKindOfRule) {
  GeneratorOptions options = sized(4000, 40);
  options.targeted_share = 0.3;
  CatalogStats stats;
  const auto catalog = load(generate_catalog(options, stats));
  ASSERT_NE(catalog, nullptr);
  size_t targeted_ads = 0, geo = 0, location = 0, custom = 0, dayparts = 0, zoned = 0,
         destination = 0;
  for (const Ad& ad : catalog->ads()) {
    const auto& t = ad.targeting;
    targeted_ads += !t.empty();
    geo += !t.geo.empty();
    location += !t.locations.empty();
    custom += t.custom.has_value();
    dayparts += !t.dayparts.empty();
    destination += !t.destination.empty();
    zoned += std::any_of(t.dayparts.begin(), t.dayparts.end(),
                         [](const auto& d) { return d.has_time_zone(); });
  }
  EXPECT_NEAR(share(targeted_ads, 4000), 0.3, 0.03);
  EXPECT_EQ(stats.targeted_ads, targeted_ads);
  EXPECT_GT(geo, 0u);
  EXPECT_GT(location, 0u);
  EXPECT_GT(custom, 0u);
  EXPECT_GT(dayparts, 0u);
  EXPECT_GT(zoned, 0u);
  EXPECT_GT(destination, 0u);
}

TEST(GeneratedCatalog, TargetedShareZeroAndOneAreExact) {
  GeneratorOptions options = sized(300, 10);
  options.targeted_share = 0;
  EXPECT_EQ(count_ads(options, targeted), 0u);
  options.targeted_share = 1;
  EXPECT_EQ(count_ads(options, targeted), 300u);
}

// Caps are drawn apart from targeting: the untargeted catalog keeps its caps.
TEST(GeneratedCatalog, CappedShareIsFollowedWithOrWithoutTargeting) {
  GeneratorOptions options = sized(4000, 40);
  options.capped_share = 0.7;
  options.targeting = false;
  EXPECT_NEAR(share(count_ads(options, capped), 4000), 0.7, 0.03);
  options.capped_share = 0;
  EXPECT_EQ(count_ads(options, capped), 0u);
}

TEST(GeneratedCatalog, MeanCandidatesPerPlacementIsAdsTimesMeanPlacementsOverPlacements) {
  GeneratorOptions options = sized(5000, 50);
  options.placements_per_ad_max = 5;  // 1..5 placements, mean 3
  CatalogStats stats;
  const auto catalog = load(generate_catalog(options, stats));
  ASSERT_NE(catalog, nullptr);
  size_t candidates = 0;
  for (uint32_t p = 0; p < 50; ++p) {
    for (const auto& tier : catalog->index().candidates(p, FormatFilter::kAny)) {
      candidates += tier.ad_indexes.size();
    }
  }
  const double expected = 5000.0 * 3 / 50;
  EXPECT_NEAR(candidates / 50.0, expected, expected * 0.03);
  EXPECT_DOUBLE_EQ(stats.mean_candidates_per_placement(), candidates / 50.0);
  for (const Ad& ad : catalog->ads()) {
    EXPECT_GE(ad.placement_indexes.size(), 1u);
    EXPECT_LE(ad.placement_indexes.size(), 5u);
  }
}

TEST(GeneratedCatalog, PlacementsPerAdNeverExceedThePlacements) {
  GeneratorOptions options = sized(200, 2);
  options.placements_per_ad_max = 8;
  const auto catalog = load(generate_catalog(options));
  ASSERT_NE(catalog, nullptr);
  for (const Ad& ad : catalog->ads()) EXPECT_LE(ad.placement_indexes.size(), 2u);
}

// The loader's bound: an ad on 1..1024 placements.
TEST(GeneratedCatalog, PlacementsPerAdReachTheLoadersBound) {
  GeneratorOptions options = sized(40, 2000);
  options.placements_per_ad_max = 1024;
  const auto catalog = load(generate_catalog(options));
  ASSERT_NE(catalog, nullptr);
  size_t most = 0;
  for (const Ad& ad : catalog->ads()) most = std::max(most, ad.placement_indexes.size());
  EXPECT_GT(most, 900u);
  EXPECT_LE(most, 1024u);
}

TEST(GeneratedCatalog, VideoAdsAppearWhenAskedAndLoad) {
  GeneratorOptions options = sized(3000, 20);
  options.video_share = 0.25;
  const auto catalog = load(generate_catalog(options));
  ASSERT_NE(catalog, nullptr);
  size_t video_ads = 0, skippable = 0, companions = 0;
  for (const Ad& ad : catalog->ads()) {
    for (const Creative& c : ad.creatives) {
      EXPECT_EQ(c.video.has_value(), ad.format == Format::kVideo) << "ad " << ad.id;
      if (!c.video) continue;
      EXPECT_FALSE(c.video->media_files.empty());
      skippable += c.video->skippable();
      companions += !c.video->companions.empty();
    }
    video_ads += video(ad);
  }
  EXPECT_NEAR(share(video_ads, 3000), 0.25, 0.03);
  EXPECT_GT(skippable, 0u);
  EXPECT_GT(companions, 0u);
  options.video_share = 0;
  EXPECT_EQ(count_ads(options, video), 0u);
}

TEST(GeneratedCatalog, TiersAreMixedMostlyStandard) {
  const auto catalog = load(generate_catalog(sized(3000, 20)));
  ASSERT_NE(catalog, nullptr);
  size_t per_tier[3] = {};
  for (const Ad& ad : catalog->ads()) {
    ++per_tier[ad.tier_index];
    EXPECT_GE(ad.weight, 1u);
    EXPECT_LE(ad.weight, 100u);
  }
  EXPECT_EQ(catalog->priorities()[1].key, "standard");
  EXPECT_GT(per_tier[0], 0u);
  EXPECT_GT(per_tier[2], 0u);
  EXPECT_GT(share(per_tier[1], 3000), 0.7);
}

TEST(GeneratedCatalog, FlightsAreMostlyOpenSomeEndLaterAndAFewHaveEnded) {
  CatalogStats stats;
  const auto catalog = load(generate_catalog(sized(3000, 20), stats));
  ASSERT_NE(catalog, nullptr);
  size_t open = 0, ended = 0, ending_later = 0;
  for (const Ad& ad : catalog->ads()) {
    if (!ad.has_end()) {
      ++open;
    } else if (ad.active_at(k2026_01_01_s)) {
      ++ending_later;
    } else {
      ++ended;
    }
  }
  EXPECT_GT(share(open, 3000), 0.7);
  EXPECT_GT(ending_later, 0u);
  EXPECT_GT(ended, 0u);
  EXPECT_LT(share(ended, 3000), 0.1);
  EXPECT_EQ(stats.ended_ads, ended);
}

TEST(GeneratedCatalog, EveryCreativeHasTheDefaultLanguageAndOnlyListedOnes) {
  GeneratorOptions options = sized(1000, 10);
  options.languages = {"fr", "pt-BR", "ja"};
  const auto catalog = load(generate_catalog(options));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->default_language(), "fr");
  std::set<std::string> seen;
  for (const Ad& ad : catalog->ads()) {
    for (const Creative& c : ad.creatives) {
      EXPECT_EQ(c.default_language_contents().language, "fr");
      for (const auto& contents : c.contents) seen.insert(contents.language);
    }
  }
  EXPECT_EQ(seen, (std::set<std::string>{"fr", "ja", "pt-BR"}));
}

// Names with quotes, backslashes and non-ASCII letters come back from the loader intact.
TEST(GeneratedCatalog, AdvertiserNamesNeedingEscapesRoundTrip) {
  GeneratorOptions options = sized(10, 2);
  options.advertisers = 24;
  const auto catalog = load(generate_catalog(options));
  ASSERT_NE(catalog, nullptr);
  std::set<std::string_view> names;
  for (const auto& advertiser : catalog->advertisers()) names.insert(advertiser.name);
  EXPECT_TRUE(names.contains("The \"Corner\" Bakery"));
  EXPECT_TRUE(names.contains("Back\\Slash Records"));
  EXPECT_TRUE(names.contains("Lumière Café"));
  EXPECT_TRUE(names.contains("さくら Sushi"));
}

TEST(CheckOptions, RefusesWhatTheGeneratorCannotWrite) {
  EXPECT_TRUE(check_options(GeneratorOptions{}).ok());
  const auto refused = [](auto edit) {
    GeneratorOptions options;
    edit(options);
    return std::string(check_options(options).message());
  };
  EXPECT_EQ(refused([](auto& o) { o.placements = 0; }), "--placements must be in 1..1000000");
  EXPECT_EQ(refused([](auto& o) { o.templates = 0; }), "--templates must be in 1..1000");
  EXPECT_EQ(refused([](auto& o) { o.video_share = 1.5; }),
            "--video-share must be a number in 0..1");
  EXPECT_EQ(refused([](auto& o) { o.targeted_share = -0.1; }),
            "--targeted-share must be a number in 0..1");
  EXPECT_EQ(refused([](auto& o) { o.placements_per_ad_max = 0; }),
            "--placements-per-ad-max must be in 1..1024");
  EXPECT_EQ(refused([](auto& o) { o.languages = {}; }),
            "--languages must list 1..32 language tags");
  EXPECT_EQ(refused([](auto& o) {
              o.languages = {"en", "pt-br"};
            }),
            "--languages \"pt-br\" is not a normalised language tag (such as en or pt-BR)");
  EXPECT_EQ(refused([](auto& o) {
              o.languages = {"en", "fr", "en"};
            }),
            "--languages lists \"en\" twice");
}

}  // namespace
}  // namespace tools::gen_catalog
