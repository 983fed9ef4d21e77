// Choosing a creative's content language: per range in preference order, exact match, then
// RFC 4647 lookup by truncation, then basic filtering; "*" takes any; q=0 excludes.
#include "decision/localization/language_match.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "tests/support/allocation_count.h"

namespace decision::localization {
namespace {

LanguageChoice choose(std::optional<std::string_view> header,
                      std::vector<std::string_view> available,
                      std::string_view default_language = "en") {
  return choose_language(parse_accept_language(header), available, default_language);
}

std::string_view chosen(std::optional<std::string_view> header,
                        std::vector<std::string_view> available,
                        std::string_view default_language = "en") {
  const LanguageChoice c = choose(header, std::move(available), default_language);
  return c.outcome == LanguageOutcome::kMatched ? c.language : "<no match>";
}

TEST(LanguageMatch, ExactMatchIsChosen) {
  const LanguageChoice c = choose("pt-BR", {"en", "fr", "pt-BR"});
  EXPECT_EQ(c.outcome, LanguageOutcome::kMatched);
  EXPECT_EQ(c.language, "pt-BR");
  EXPECT_EQ(c.index, 2);
  EXPECT_EQ(c.warning_code(), 0);
}

TEST(LanguageMatch, HigherQWinsWhateverTheHeaderOrder) {
  EXPECT_EQ(chosen("fr;q=0.5, de;q=0.9", {"fr", "de"}), "de");
}

TEST(LanguageMatch, EqualQKeepsHeaderOrder) {
  EXPECT_EQ(chosen("fr, de", {"de", "fr"}), "fr");
  EXPECT_EQ(chosen("de;q=0.4, fr;q=0.4", {"fr", "de"}), "de");
}

TEST(LanguageMatch, QZeroLanguageIsNeverChosen) {
  EXPECT_EQ(chosen("fr;q=0, de;q=0.1", {"fr", "de"}), "de");
  EXPECT_EQ(chosen("fr;q=0", {"fr"}), "<no match>");
}

TEST(LanguageMatch, StarTakesTheDefaultLanguageWhenTheCreativeHasIt) {
  EXPECT_EQ(chosen("*", {"de", "en", "fr"}, "en"), "en");
}

TEST(LanguageMatch, StarTakesTheFirstLanguageWithoutTheDefault) {
  EXPECT_EQ(chosen("*", {"de", "it"}, "en"), "de");
}

TEST(LanguageMatch, StarComesAfterBetterRanges) {
  EXPECT_EQ(chosen("it, *;q=0.1", {"en", "it"}, "en"), "it");
  EXPECT_EQ(chosen("ja, *;q=0.1", {"en", "it"}, "en"), "en");
}

TEST(LanguageMatch, StarSkipsExcludedLanguages) {
  EXPECT_EQ(chosen("*, en;q=0", {"en", "fr", "de"}, "en"), "fr");
  EXPECT_EQ(chosen("*, *;q=0", {"en", "fr"}), "<no match>");
}

TEST(LanguageMatch, MatchingIsCaseInsensitiveAndReturnsTheCatalogSpelling) {
  EXPECT_EQ(chosen("PT-br", {"en", "pt-BR"}), "pt-BR");
  EXPECT_EQ(chosen("fr-ca", {"FR"}), "FR");
}

TEST(LanguageMatch, RegionalRangeFallsBackToItsLanguage) {
  const LanguageChoice c = choose("fr-CA", {"en", "fr"});
  EXPECT_EQ(c.outcome, LanguageOutcome::kMatched);
  EXPECT_EQ(c.language, "fr");
  EXPECT_EQ(c.index, 1);
}

TEST(LanguageMatch, ExactMatchBeatsTruncation) {
  EXPECT_EQ(chosen("fr-CA", {"fr", "fr-CA"}), "fr-CA");
}

TEST(LanguageMatch, TruncationGoesSubtagBySubtag) {
  EXPECT_EQ(chosen("zh-Hant-CN", {"zh", "zh-Hant"}), "zh-Hant");
  EXPECT_EQ(chosen("zh-Hant-CN", {"zh"}), "zh");
}

TEST(LanguageMatch, TruncationDropsATrailingSingleton) {
  // RFC 4647 section 3.4: "zh-Hant-CN-x-private1" -> "zh-Hant-CN" (never "zh-Hant-CN-x").
  EXPECT_EQ(chosen("zh-Hant-CN-x-private1", {"zh-Hant-CN-x", "zh-Hant-CN"}), "zh-Hant-CN");
}

TEST(LanguageMatch, LookupOfTheBestRangeBeatsExactMatchOfALaterOne) {
  EXPECT_EQ(chosen("fr-CA, en;q=0.8", {"en", "fr"}), "fr");
}

TEST(LanguageMatch, TruncationSkipsExcludedLanguages) {
  EXPECT_EQ(chosen("fr-CA, fr;q=0", {"fr"}), "<no match>");
}

TEST(LanguageMatch, MoreSpecificContentMatchesOnlyAsALastResort) {
  EXPECT_EQ(chosen("en", {"fr", "en-US"}), "en-US");
  EXPECT_EQ(chosen("en-GB", {"en-US", "en"}), "en");
}

TEST(LanguageMatch, BasicFilteringBeatsLaterRanges) {
  EXPECT_EQ(chosen("en, fr;q=0.8", {"fr", "en-US"}), "en-US");
}

TEST(LanguageMatch, BasicFilteringPrefersTheDefaultLanguage) {
  EXPECT_EQ(chosen("en", {"en-GB", "en-US"}, "en-US"), "en-US");
  EXPECT_EQ(chosen("en", {"en-GB", "en-US"}, "fr"), "en-GB");
}

TEST(LanguageMatch, BasicFilteringSkipsExcludedLanguages) {
  EXPECT_EQ(chosen("en, en-GB;q=0", {"en-GB", "en-US"}), "en-US");
}

TEST(LanguageMatch, PrefixMustEndAtASubtagBoundary) {
  EXPECT_EQ(chosen("fr", {"fro"}), "<no match>");
}

TEST(LanguageMatch, NoMatchServesTheDefaultWithWarning20004) {
  const LanguageChoice c = choose("de, ja;q=0.5", {"fr", "en"}, "en");
  EXPECT_EQ(c.outcome, LanguageOutcome::kNoMatch);
  EXPECT_EQ(c.language, "en");
  EXPECT_EQ(c.index, 1);
  EXPECT_EQ(c.warning_code(), 20004);
}

TEST(LanguageMatch, MissingHeaderServesTheDefaultWithWarning20001) {
  const LanguageChoice c = choose(std::nullopt, {"fr", "en"}, "en");
  EXPECT_EQ(c.outcome, LanguageOutcome::kHeaderMissing);
  EXPECT_EQ(c.language, "en");
  EXPECT_EQ(c.index, 1);
  EXPECT_EQ(c.warning_code(), 20001);
}

TEST(LanguageMatch, EmptyHeaderCountsAsMissing) {
  EXPECT_EQ(choose("", {"fr", "en"}).outcome, LanguageOutcome::kHeaderMissing);
  EXPECT_EQ(choose("@@, ;q=1", {"fr", "en"}).outcome, LanguageOutcome::kHeaderMissing);
}

TEST(LanguageMatch, DefaultTheCreativeLacksHasNoIndex) {
  const LanguageChoice c = choose("de", {"fr"}, "en");
  EXPECT_EQ(c.language, "en");
  EXPECT_EQ(c.index, -1);
}

TEST(LanguageMatch, NoContentLanguagesIsNoMatch) {
  EXPECT_EQ(choose("*", {}).outcome, LanguageOutcome::kNoMatch);
}

TEST(LanguageMatch, AcceptsCatalogStrings) {
  const std::vector<std::string> available = {"en", "fr"};
  const std::span<const std::string> languages(available);
  const LanguageChoice c = choose_language(parse_accept_language("fr-BE"), languages, "en");
  EXPECT_EQ(c.language, "fr");
  EXPECT_EQ(c.index, 1);
}

TEST(LanguageMatch, ChoosingAllocatesNothing) {
  const std::string header = "fr-CA;q=0.9, en;q=0.8, *;q=0.1, de;q=0";
  const std::vector<std::string_view> available = {"de", "en-US", "pt-BR"};
  const decision::testing::AllocationCount count;
  const LanguageChoice c = choose_language(parse_accept_language(header), available, "pt-BR");
  EXPECT_EQ(count.since(), 0u);
  EXPECT_EQ(c.language, "en-US");
}

}  // namespace
}  // namespace decision::localization
