// docs/catalog.md rules on creatives: language keys, contents, URLs, custom events,
// verification items in either spelling.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::edit;
using ::testing::ElementsAre;
using testing::errors_of;
using testing::kDesignExample;
using testing::load_ok;

constexpr std::string_view kFrench =
    R"("fr": [{"key": "title", "value": "Envolez-vous pour Lisbonne", "type": "text"}])";
constexpr std::string_view kVerification =
    R"({"vendorKey": "iabtechlab.com-omid", "scriptUrl": "https://verify.example.com/omid.js",
             "verificationParameters": "campaign=1001"})";

std::string with_verification(std::string_view items) {
  return edit(kDesignExample, kVerification, items);
}

TEST(LanguageRule, LanguageKeysAreLanguageTags) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, kFrench, R"("français": [{"key": "title", "value": "x"}])")),
      ElementsAre("ads[0].creatives[0].contents[\"français\"]: is not a language tag (such as en "
                  "or pt-BR)"));
  EXPECT_THAT(
      errors_of(edit(kDesignExample, kFrench, R"("pt_BR": [{"key": "title", "value": "x"}])")),
      ElementsAre(
          "ads[0].creatives[0].contents.pt_BR: is not a language tag (such as en or pt-BR)"));
}

TEST(LanguageRule, LanguageTagsAreCaseNormalised) {
  const auto catalog =
      load_ok(edit(kDesignExample, kFrench, R"("PT-br": [{"key": "title", "value": "Voe"}])"));
  ASSERT_NE(catalog, nullptr);
  const Creative& creative = catalog->ads()[0].creatives[0];
  EXPECT_EQ(creative.contents.at(1).language, "pt-BR");
  EXPECT_NE(creative.contents_for("pt-br"), nullptr);
}

TEST(LanguageRule, LanguagesAreUniqueAfterNormalisation) {
  EXPECT_THAT(errors_of(edit(kDesignExample, kFrench, R"("EN": [{"key": "title", "value": "x"}])")),
              ElementsAre("ads[0].creatives[0].contents.EN: duplicate language en"));
}

TEST(ContentsRule, ContentsIncludeTheDefaultLanguage) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("defaultLanguage": "en")", R"("defaultLanguage": "de")")),
      ElementsAre("ads[0].creatives[0].contents: has no content in the default language \"de\""));
}

TEST(ContentsRule, ContentItemsHaveKeyAndValueAndTypeDefaultsToText) {
  EXPECT_THAT(errors_of(edit(kDesignExample, kFrench, R"("fr": [{"value": 3}, []])")),
              ElementsAre("ads[0].creatives[0].contents.fr[0].key: is required",
                          "ads[0].creatives[0].contents.fr[0].value: must be a string",
                          "ads[0].creatives[0].contents.fr[1]: must be an object"));
  const auto catalog =
      load_ok(edit(kDesignExample, kFrench, R"("fr": [{"key": "title", "value": "Salut"}])"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads()[0].creatives[0].contents_for("fr")->items.at(0).type, "text");
}

TEST(ContentsRule, PathsNameTheLanguage) {
  EXPECT_THAT(errors_of(edit(kDesignExample, kFrench, R"("pt-BR": [{"value": "Voe"}])")),
              ElementsAre("ads[0].creatives[0].contents.pt-BR[0].key: is required"));
}

TEST(ContentsRule, ALanguageHoldsAtLeastOneItem) {
  EXPECT_THAT(errors_of(edit(kDesignExample, kFrench, R"("fr": [])")),
              ElementsAre("ads[0].creatives[0].contents.fr: must hold at least one content item"));
}

TEST(CreativeRule, AnAdHasAtLeastOneCreative) {
  const std::string catalog =
      edit(kDesignExample, R"("creatives": [)", R"("creatives": [], "old": [)");
  EXPECT_THAT(errors_of(catalog), ElementsAre("ads[0].creatives: must hold 1..64 creatives"));
}

TEST(CreativeRule, ClickUrlIsAnHttpUrl) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("https://acme.example.com/lisbon")",
                             R"x("javascript:alert(1)")x")),
              ElementsAre("ads[0].creatives[0].clickUrl: must be an absolute http or https URL"));
}

TEST(CreativeRule, ClickUrlFitsInAClickToken) {
  const std::string at_limit = "https://acme.example.com/" + std::string(2048 - 25, 'a');
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("https://acme.example.com/lisbon")",
                             "\"" + at_limit + "\"")),
              ElementsAre());
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("https://acme.example.com/lisbon")",
                             "\"" + at_limit + "a\"")),
              ElementsAre("ads[0].creatives[0].clickUrl: must be at most 2048 bytes"));
}

TEST(CreativeRule, CustomEventsAreNamesWithoutDuplicates) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"(["add_to_cart"])",
                             R"(["add_to_cart", "add_to_cart", "click", "a b"])")),
              ElementsAre("ads[0].creatives[0].customEvents[1]: duplicate custom event add_to_cart",
                          "ads[0].creatives[0].customEvents[2]: must be 1..64 of [A-Za-z0-9_.-], "
                          "not impression or click",
                          "ads[0].creatives[0].customEvents[3]: must be 1..64 of [A-Za-z0-9_.-], "
                          "not impression or click"));
}

TEST(CreativeRule, NativeAdsHaveNoVideo) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("video": null)", R"("video": {})")),
      ElementsAre("ads[0].creatives[0].video: is only for video ads (the ad's format is native)"));
}

TEST(VerificationRule, BothSpellingsAreNormalised) {
  const auto catalog = load_ok(with_verification(
      R"({"vendorKey": "a.com-omid", "scriptUrl": "https://a.example.com/v.js", "verificationParameters": "p=1"},
         {"vendorKey": "b.com-omid", "url": "https://b.example.com/v.js", "parameters": "p=2"},
         {"vendorKey": "c.com-omid", "url": "https://c.example.com/v.js"})"));
  ASSERT_NE(catalog, nullptr);
  const std::vector<VerificationItem>& items = catalog->ads()[0].creatives[0].verification;
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].vendor_key, "a.com-omid");
  EXPECT_EQ(items[0].url, "https://a.example.com/v.js");
  EXPECT_EQ(items[0].parameters, "p=1");
  EXPECT_EQ(items[1].vendor_key, "b.com-omid");
  EXPECT_EQ(items[1].url, "https://b.example.com/v.js");
  EXPECT_EQ(items[1].parameters, "p=2");
  EXPECT_EQ(items[2].parameters, "");
}

TEST(VerificationRule, TwoSpellingsOfOneFieldMustAgree) {
  EXPECT_NE(
      load_ok(with_verification(
          R"({"vendorKey": "a", "url": "https://a.example.com/v.js", "scriptUrl": "https://a.example.com/v.js"})")),
      nullptr);
  EXPECT_THAT(
      errors_of(with_verification(
          R"({"vendorKey": "a", "url": "https://a.example.com/v.js", "scriptUrl": "https://b.example.com/v.js"})")),
      ElementsAre("ads[0].creatives[0].verification[0].scriptUrl: conflicts with url (two "
                  "spellings of one field)"));
}

TEST(VerificationRule, VendorKeyAndUrlAreRequired) {
  EXPECT_THAT(
      errors_of(with_verification(R"({"parameters": "x"})")),
      ElementsAre("ads[0].creatives[0].verification[0].vendorKey: is required",
                  "ads[0].creatives[0].verification[0].url: is required (url or scriptUrl)"));
  EXPECT_THAT(
      errors_of(with_verification(R"({"vendorKey": "a", "scriptUrl": "omid.js"})")),
      ElementsAre(
          "ads[0].creatives[0].verification[0].scriptUrl: must be an absolute http or https URL"));
}

}  // namespace
}  // namespace decision::catalog
