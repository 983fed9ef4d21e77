// Accept-Language (RFC 9110 section 12.5.4): ranges with weights, best first; malformed
// items skipped; a bound on how many are kept.
#include "decision/localization/accept_language.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/support/allocation_count.h"

namespace decision::localization {
namespace {

using Ranges = std::vector<std::pair<std::string, int>>;

Ranges preferred(const LanguagePreferences& p) {
  Ranges out;
  for (const LanguageRange& r : p.preferred()) out.emplace_back(r.range, r.q_milli);
  return out;
}

Ranges excluded(const LanguagePreferences& p) {
  Ranges out;
  for (const LanguageRange& r : p.excluded()) out.emplace_back(r.range, r.q_milli);
  return out;
}

Ranges preferred(std::string_view header) { return preferred(parse_accept_language(header)); }

TEST(AcceptLanguage, MissingHeaderStatesNoLanguage) {
  const LanguagePreferences p = parse_accept_language(std::nullopt);
  EXPECT_FALSE(p.present());
  EXPECT_TRUE(p.preferred().empty());
}

TEST(AcceptLanguage, EmptyHeaderStatesNoLanguage) {
  EXPECT_FALSE(parse_accept_language("").present());
  EXPECT_FALSE(parse_accept_language("  \t ").present());
  EXPECT_FALSE(parse_accept_language(" , ,, ").present());
}

TEST(AcceptLanguage, RangeWithoutWeightHasQOne) {
  EXPECT_EQ(preferred("fr-CA"), (Ranges{{"fr-CA", 1000}}));
}

TEST(AcceptLanguage, RangesAreOrderedByDescendingQ) {
  EXPECT_EQ(preferred("de;q=0.3, fr;q=0.9, en-US, it;q=0.5"),
            (Ranges{{"en-US", 1000}, {"fr", 900}, {"it", 500}, {"de", 300}}));
}

TEST(AcceptLanguage, EqualWeightsKeepHeaderOrder) {
  EXPECT_EQ(preferred("pt;q=0.5, es, pt-BR;q=0.5, fr, it;q=0.5"),
            (Ranges{{"es", 1000}, {"fr", 1000}, {"pt", 500}, {"pt-BR", 500}, {"it", 500}}));
}

TEST(AcceptLanguage, QZeroMeansNotAcceptable) {
  const LanguagePreferences p = parse_accept_language("fr;q=0, en, de;q=0.000");
  EXPECT_TRUE(p.present());
  EXPECT_EQ(preferred(p), (Ranges{{"en", 1000}}));
  EXPECT_EQ(excluded(p), (Ranges{{"fr", 0}, {"de", 0}}));
}

TEST(AcceptLanguage, OnlyExclusionsStillStateALanguagePreference) {
  const LanguagePreferences p = parse_accept_language("*;q=0");
  EXPECT_TRUE(p.present());
  EXPECT_TRUE(p.preferred().empty());
  EXPECT_EQ(excluded(p), (Ranges{{"*", 0}}));
}

TEST(AcceptLanguage, StarIsARange) {
  EXPECT_EQ(preferred("en, *;q=0.1"), (Ranges{{"en", 1000}, {"*", 100}}));
}

TEST(AcceptLanguage, WeightsHaveUpToThreeDecimals) {
  EXPECT_EQ(preferred("a;q=1.000, b;q=1., c;q=0.123, d;q=0.5, e;q=0.05, f;q=0.001"),
            (Ranges{{"a", 1000}, {"b", 1000}, {"d", 500}, {"c", 123}, {"e", 50}, {"f", 1}}));
}

TEST(AcceptLanguage, NamesAndWeightAreCaseInsensitive) {
  // Ranges are kept as sent; matching compares them without case.
  EXPECT_EQ(preferred("EN-us;Q=0.5, Fr"), (Ranges{{"Fr", 1000}, {"EN-us", 500}}));
}

TEST(AcceptLanguage, WhitespaceAroundItemsSeparatorsAndWeightsIsTolerated) {
  EXPECT_EQ(preferred(" \tfr-CA ;\tq = 0.8 ,en  ,  de ; q=0.2\t"),
            (Ranges{{"en", 1000}, {"fr-CA", 800}, {"de", 200}}));
}

TEST(AcceptLanguage, MalformedRangesAreSkipped) {
  const LanguagePreferences p = parse_accept_language(
      "en-, -en, 123, e@, abcdefghi, en-abcdefghi, en_US, *-CH, en--US, fr, es-419");
  EXPECT_EQ(preferred(p), (Ranges{{"fr", 1000}, {"es-419", 1000}}));
  EXPECT_EQ(p.malformed_items(), 9u);
}

TEST(AcceptLanguage, MalformedWeightsAreSkipped) {
  const LanguagePreferences p = parse_accept_language(
      "a;q=2, b;q=1.5, c;q=1.001, d;q=0.1234, e;q=.5, f;q=, g;q, h;x=1, i;q=0.5;q=0.3, "
      "j;q=-0, k;q=0,5, l;, en;q=0.7");
  EXPECT_EQ(preferred(p), (Ranges{{"en", 700}}));
  // "k;q=0,5" is two items: "k;q=0" (excluded) and "5" (malformed).
  EXPECT_EQ(excluded(p), (Ranges{{"k", 0}}));
  EXPECT_EQ(p.malformed_items(), 12u);
}

TEST(AcceptLanguage, ItemWithoutSemicolonBeforeWeightIsSkipped) {
  EXPECT_EQ(preferred("en q=0.5, fr"), (Ranges{{"fr", 1000}}));
}

TEST(AcceptLanguage, NothingWellFormedStatesNoLanguage) {
  const LanguagePreferences p = parse_accept_language("??, en;q=abc");
  EXPECT_FALSE(p.present());
  EXPECT_EQ(p.malformed_items(), 2u);
}

TEST(AcceptLanguage, RangesBeyondTheBoundAreIgnored) {
  // The 17th range would be the best one, but only the first 16 are read.
  std::string header;
  for (int i = 0; i < 16; ++i) absl::StrAppend(&header, "l", std::string(1, 'a' + i), ";q=0.5, ");
  header += "zz, yy";
  const LanguagePreferences p = parse_accept_language(header);
  ASSERT_EQ(p.preferred().size(), kMaxLanguageRanges);
  EXPECT_EQ(p.preferred().front().range, "la");
  EXPECT_EQ(p.preferred().back().range, "lp");
  EXPECT_EQ(p.ignored_items(), 2u);
}

TEST(AcceptLanguage, MalformedItemsDoNotTakeASlot) {
  std::string header;
  for (int i = 0; i < 20; ++i) header += "@@, ";
  header += "en";
  EXPECT_EQ(preferred(header), (Ranges{{"en", 1000}}));
}

TEST(AcceptLanguage, ParsingAllocatesNothing) {
  const std::string header = "fr-CA;q=0.9, fr;q=0.8, en;q=0.7, *;q=0.1, de;q=0, bad@, x";
  const decision::testing::AllocationCount count;
  const LanguagePreferences p = parse_accept_language(header);
  EXPECT_EQ(count.since(), 0u);
  EXPECT_EQ(p.preferred().size(), 5u);  // "x" is a well-formed one-letter range
}

}  // namespace
}  // namespace decision::localization
