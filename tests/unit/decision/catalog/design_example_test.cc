// The catalogs that must load: docs/catalog.md's example (native and video) and the demo
// catalog the server ships with.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::design_video_example;
using testing::kDesignExample;
using testing::load_ok;

TEST(DesignExample, NativeExampleLoads) {
  const auto catalog = load_ok(kDesignExample);
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->revision(), "2026-11-21.1");
  EXPECT_EQ(catalog->default_language(), "en");
  ASSERT_EQ(catalog->priorities().size(), 3u);
  ASSERT_EQ(catalog->ads().size(), 1u);
  const Ad& ad = catalog->ads()[0];
  EXPECT_EQ(ad.id, 1001u);
  EXPECT_EQ(catalog->advertisers()[ad.advertiser_index].legal_name, "Acme Air Ltd");
  EXPECT_EQ(catalog->templates()[ad.template_index].key, "native_card");
  EXPECT_EQ(catalog->priorities()[ad.tier_index].key, "standard");
  EXPECT_EQ(catalog->placements()[ad.placement_indexes.at(0)].key, "home_top");
  EXPECT_EQ(ad.weight, 10u);
  EXPECT_EQ(ad.format, Format::kNative);
  EXPECT_EQ(ad.style, "default");
  EXPECT_EQ(ad.start_s, 1'767'225'600);  // 2026-01-01T00:00:00Z
  EXPECT_FALSE(ad.has_end());
  ASSERT_EQ(ad.frequency_caps.size(), 1u);
  EXPECT_EQ(ad.frequency_caps[0].impressions, 3u);
  EXPECT_EQ(ad.frequency_caps[0].window_s, 86400u);
}

TEST(DesignExample, NativeExampleTargetingIsKept) {
  const auto catalog = load_ok(kDesignExample);
  ASSERT_NE(catalog, nullptr);
  const Targeting& targeting = catalog->ads()[0].targeting;
  EXPECT_THAT(targeting.geo, ::testing::ElementsAre(2988507u, 3017382u));
  ASSERT_EQ(targeting.locations.size(), 1u);
  EXPECT_DOUBLE_EQ(targeting.locations[0].lat, 48.8566);
  EXPECT_DOUBLE_EQ(targeting.locations[0].lon, 2.3522);
  EXPECT_DOUBLE_EQ(targeting.locations[0].radius_km, 25);
  ASSERT_TRUE(targeting.custom.has_value());
  EXPECT_EQ(targeting.custom->source, "custom.tier == 'gold' && custom.age >= 18");
  EXPECT_EQ(targeting.custom->path, "ads[0].targeting.custom");
  ASSERT_EQ(targeting.dayparts.size(), 1u);
  EXPECT_EQ(targeting.dayparts[0].days, 0b0011111);  // mon..fri
  EXPECT_EQ(targeting.dayparts[0].start_minute, 8 * 60);
  EXPECT_EQ(targeting.dayparts[0].end_minute, 20 * 60);
  EXPECT_FALSE(targeting.dayparts[0].has_time_zone());
  EXPECT_THAT(targeting.destination, ::testing::ElementsAre(2267057u));
}

TEST(DesignExample, NativeExampleCreativeIsKept) {
  const auto catalog = load_ok(kDesignExample);
  ASSERT_NE(catalog, nullptr);
  const Creative& creative = catalog->ads()[0].creatives.at(0);
  EXPECT_EQ(creative.id, 2002u);
  ASSERT_EQ(creative.contents.size(), 2u);
  EXPECT_EQ(creative.default_language_contents().language, "en");
  ASSERT_NE(creative.contents_for("fr"), nullptr);
  EXPECT_EQ(creative.contents_for("fr")->items.at(0).value, "Envolez-vous pour Lisbonne");
  EXPECT_EQ(creative.contents_for("fr")->items.at(0).type, "text");
  EXPECT_EQ(creative.click_url, "https://acme.example.com/lisbon");
  EXPECT_THAT(creative.custom_events, ::testing::ElementsAre("add_to_cart"));
  ASSERT_EQ(creative.verification.size(), 1u);
  EXPECT_EQ(creative.verification[0].url, "https://verify.example.com/omid.js");
  EXPECT_FALSE(creative.video.has_value());
}

TEST(DesignExample, VideoExampleLoads) {
  const auto catalog = load_ok(design_video_example());
  ASSERT_NE(catalog, nullptr);
  const Ad& ad = catalog->ads()[0];
  EXPECT_EQ(ad.format, Format::kVideo);
  ASSERT_TRUE(ad.creatives.at(0).video.has_value());
  const Video& video = *ad.creatives[0].video;
  EXPECT_EQ(video.delivery, VideoDelivery::kVastXml);
  ASSERT_EQ(video.media_files.size(), 1u);
  EXPECT_EQ(video.media_files[0].url, "https://cdn.example.com/v/1.mp4");
  EXPECT_EQ(video.media_files[0].type, "video/mp4");
  EXPECT_EQ(video.media_files[0].width, 1280u);
  EXPECT_EQ(video.media_files[0].height, 720u);
  EXPECT_EQ(video.media_files[0].bitrate_kbps, 2500u);
  EXPECT_DOUBLE_EQ(video.duration_s, 30);
  EXPECT_EQ(video.aspect_ratio, "16:9");
  EXPECT_EQ(video.skip_offset.kind, SkipOffset::Kind::kSeconds);
  EXPECT_EQ(video.skip_offset_s(), 5.0);
  ASSERT_EQ(video.companions.size(), 1u);
  EXPECT_EQ(video.companions[0].width, 300u);
  EXPECT_EQ(video.companions[0].image_url, "https://cdn.example.com/c.png");
  EXPECT_EQ(video.companions[0].click_url, "https://acme.example.com/c");
}

TEST(DemoCatalog, LoadsWithZeroErrors) {
  const LoadResult result = load_catalog_file(DECISIOND_DEMO_CATALOG);
  EXPECT_TRUE(result.errors.empty()) << result.status().message();
  ASSERT_TRUE(result.ok());
  const CatalogSnapshot& catalog = *result.snapshot;
  EXPECT_EQ(catalog.advertisers().size(), 4u);
  EXPECT_EQ(catalog.templates().size(), 2u);
  EXPECT_EQ(catalog.placements().size(), 4u);
  EXPECT_EQ(catalog.priorities().size(), 3u);
  EXPECT_GE(catalog.ads().size(), 10u);
}

TEST(DemoCatalog, EveryPlacementHasAnUntargetedCandidate) {
  const LoadResult result = load_catalog_file(DECISIOND_DEMO_CATALOG);
  ASSERT_TRUE(result.ok());
  const CatalogSnapshot& catalog = *result.snapshot;
  for (uint32_t p = 0; p < catalog.placements().size(); ++p) {
    bool found = false;
    for (const TierCandidates& tier : catalog.index().candidates(p, FormatFilter::kAny)) {
      for (uint32_t a : tier.ad_indexes) found = found || catalog.ads()[a].targeting.empty();
    }
    EXPECT_TRUE(found) << catalog.placements()[p].key;
  }
}

TEST(DemoCatalog, HasAVideoAdWithCompanionAndVerification) {
  const LoadResult result = load_catalog_file(DECISIOND_DEMO_CATALOG);
  ASSERT_TRUE(result.ok());
  const auto preroll = result.snapshot->index().placement_index("video_preroll");
  ASSERT_TRUE(preroll.has_value());
  const auto tiers = result.snapshot->index().candidates(*preroll, FormatFilter::kVideo);
  ASSERT_FALSE(tiers.empty());
  const Ad& ad = result.snapshot->ads()[tiers[0].ad_indexes[0]];
  const Creative& creative = ad.creatives.at(0);
  ASSERT_TRUE(creative.video.has_value());
  EXPECT_EQ(creative.video->delivery, VideoDelivery::kVastXml);
  EXPECT_FALSE(creative.video->companions.empty());
  EXPECT_TRUE(creative.video->skippable());
  EXPECT_FALSE(creative.verification.empty());
}

}  // namespace
}  // namespace decision::catalog
