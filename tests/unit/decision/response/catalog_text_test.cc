#include "decision/response/catalog_text.h"

#include <gtest/gtest.h>

#include "tests/unit/decision/response/response_fixtures.h"

namespace decision::response {
namespace {

TEST(CatalogText, ContentsArePreEscapedPerLanguageInFileOrder) {
  const auto snapshot = testing::response_catalog();
  const CatalogText text(*snapshot);
  const CatalogText::CreativeText creative = text.creative(*snapshot->ad_index(1001), 0);
  ASSERT_EQ(creative.languages.size(), 2u);
  EXPECT_EQ(creative.languages[0], "en");
  EXPECT_EQ(creative.languages[1], "fr");
  EXPECT_EQ(creative.contents_json[0],
            R"([{"key":"title","value":"Say \"hi\" \\ now\n\u0001 😀","type":"text"},)"
            R"({"key":"image","value":"https://cdn.example.com/a.jpg","type":"image"}])");
  EXPECT_EQ(creative.contents_json[1],
            R"([{"key":"title","value":"Dites « bonjour »","type":"text"},)"
            R"({"key":"image","value":"https://cdn.example.com/a.jpg","type":"image"}])");
}

TEST(CatalogText, AdvertiserObjectsOmitWhatTheCatalogDoesNotGive) {
  const auto snapshot = testing::response_catalog();
  const CatalogText text(*snapshot);
  EXPECT_EQ(text.advertiser_json(0),
            R"({"id":"advertiser_42","name":"Acme \"Air\" \\ Co","legalName":"Acme Air Ltd",)"
            R"("logoUrl":"https://cdn.example.com/acme.png"})");
  EXPECT_EQ(text.advertiser_json(1), R"({"id":"advertiser_43","name":"Lumière Café"})");
}

TEST(CatalogText, EveryCreativeOfEveryAdIsReachable) {
  const auto snapshot = testing::response_catalog();
  const CatalogText text(*snapshot);
  for (uint32_t a = 0; a < snapshot->ads().size(); ++a) {
    const catalog::Ad& ad = snapshot->ads()[a];
    for (uint32_t c = 0; c < ad.creatives.size(); ++c) {
      const CatalogText::CreativeText creative = text.creative(a, c);
      ASSERT_EQ(creative.languages.size(), ad.creatives[c].contents.size());
      for (size_t l = 0; l < creative.languages.size(); ++l) {
        EXPECT_EQ(creative.languages[l], ad.creatives[c].contents[l].language);
      }
    }
  }
  EXPECT_GT(text.bytes(), 0u);
}

}  // namespace
}  // namespace decision::response
