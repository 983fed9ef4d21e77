// Accept-Encoding per RFC 9110 12.5.3 (http/content_coding/accept_encoding.h): weights,
// identity, `*`, case, whitespace, repeated fields and items that do not parse.
#include "http/content_coding/accept_encoding.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <string_view>

#include "gtest/gtest.h"

namespace http::content_coding {
namespace {

constexpr CodingSet kBoth{.gzip = true, .zstd = true};
constexpr CodingSet kGzipOnly{.gzip = true, .zstd = false};
constexpr CodingSet kZstdOnly{.gzip = false, .zstd = true};
constexpr CodingSet kNone{};

// The coding chosen for a request carrying these Accept-Encoding fields.
Coding chosen(std::initializer_list<std::string_view> fields, CodingSet offered = kBoth) {
  Request request;
  for (std::string_view value : fields) request.headers[request.header_count++] = {"Accept-Encoding", value};
  return negotiate(request, offered);
}

TEST(AcceptEncoding, NoFieldIsIdentity) { EXPECT_EQ(chosen({}), Coding::kIdentity); }

TEST(AcceptEncoding, EmptyFieldWantsNoCoding) { EXPECT_EQ(chosen({""}), Coding::kIdentity); }

TEST(AcceptEncoding, NothingOfferedIsIdentity) { EXPECT_EQ(chosen({"gzip, zstd"}, kNone), Coding::kIdentity); }

TEST(AcceptEncoding, ZstdPreferredOnATie) {
  EXPECT_EQ(chosen({"gzip, zstd"}), Coding::kZstd);
  EXPECT_EQ(chosen({"zstd, gzip"}), Coding::kZstd);
  EXPECT_EQ(chosen({"gzip, deflate, br, zstd"}), Coding::kZstd);  // Chrome's
}

TEST(AcceptEncoding, OnlyOfferedCodingsAreChosen) {
  EXPECT_EQ(chosen({"gzip, zstd"}, kGzipOnly), Coding::kGzip);
  EXPECT_EQ(chosen({"gzip, zstd"}, kZstdOnly), Coding::kZstd);
  EXPECT_EQ(chosen({"gzip"}, kZstdOnly), Coding::kIdentity);
  EXPECT_EQ(chosen({"br, deflate"}), Coding::kIdentity);
}

TEST(AcceptEncoding, HigherWeightWins) {
  EXPECT_EQ(chosen({"gzip;q=1, zstd;q=0.5"}), Coding::kGzip);
  EXPECT_EQ(chosen({"gzip;q=0.4, zstd;q=0.5"}), Coding::kZstd);
  EXPECT_EQ(chosen({"gzip;q=0.001, zstd;q=0"}), Coding::kGzip);
}

TEST(AcceptEncoding, QZeroRefuses) {
  EXPECT_EQ(chosen({"zstd;q=0, gzip"}), Coding::kGzip);
  EXPECT_EQ(chosen({"gzip;q=0, zstd;q=0"}), Coding::kIdentity);
  EXPECT_EQ(chosen({"gzip;q=0.000"}, kGzipOnly), Coding::kIdentity);
}

TEST(AcceptEncoding, IdentityRefusedStillGetsIdentityWhenNothingElseFits) {
  // 406 would cost an ad: identity is sent.
  EXPECT_EQ(chosen({"identity;q=0, br"}), Coding::kIdentity);
  EXPECT_EQ(chosen({"identity;q=0, gzip"}), Coding::kGzip);
}

TEST(AcceptEncoding, IdentityRatedAboveTheCodingWins) {
  EXPECT_EQ(chosen({"gzip;q=0.5, identity"}), Coding::kIdentity);
  EXPECT_EQ(chosen({"gzip;q=0.5, identity;q=0.5"}), Coding::kGzip);  // a tie goes to the coding
  EXPECT_EQ(chosen({"gzip;q=0.5"}), Coding::kGzip);  // identity not named: it does not compete
}

TEST(AcceptEncoding, StarRatesWhatIsNotNamed) {
  EXPECT_EQ(chosen({"*"}), Coding::kZstd);
  EXPECT_EQ(chosen({"*"}, kGzipOnly), Coding::kGzip);
  EXPECT_EQ(chosen({"*;q=0"}), Coding::kIdentity);
  EXPECT_EQ(chosen({"zstd;q=0, *"}), Coding::kGzip);      // named beats `*`
  EXPECT_EQ(chosen({"*;q=0, gzip"}), Coding::kGzip);      // so does a named coding after it
  EXPECT_EQ(chosen({"*;q=0.5, identity"}), Coding::kIdentity);
  EXPECT_EQ(chosen({"*;q=0.5, gzip;q=0.8"}), Coding::kGzip);
}

TEST(AcceptEncoding, NamesAndWeightAreCaseInsensitive) {
  EXPECT_EQ(chosen({"GZIP"}), Coding::kGzip);
  EXPECT_EQ(chosen({"ZsTd;Q=1"}), Coding::kZstd);
  EXPECT_EQ(chosen({"zstd;Q=0, Gzip"}), Coding::kGzip);
}

TEST(AcceptEncoding, XGzipIsGzip) { EXPECT_EQ(chosen({"x-gzip"}), Coding::kGzip); }

TEST(AcceptEncoding, WhitespaceAroundSeparatorsIsAllowed) {
  EXPECT_EQ(chosen({"  gzip ;\tq=0.5 ,\tzstd ; q=0.2  "}), Coding::kGzip);
  EXPECT_EQ(chosen({" , ,gzip,, "}), Coding::kGzip);
}

TEST(AcceptEncoding, SeveralFieldsAreOneList) {
  EXPECT_EQ(chosen({"zstd;q=0", "gzip"}), Coding::kGzip);
  EXPECT_EQ(chosen({"gzip;q=0.1", "zstd;q=0.9"}), Coding::kZstd);
}

TEST(AcceptEncoding, FirstItemNamingACodingRatesIt) {
  EXPECT_EQ(chosen({"zstd;q=0, zstd;q=1, gzip;q=0.1"}), Coding::kGzip);
}

TEST(AcceptEncoding, UnreadableItemsAreSkipped) {
  EXPECT_EQ(chosen({"zstd;q=2, gzip"}), Coding::kGzip);        // weight above 1
  EXPECT_EQ(chosen({"zstd;q=1.5, gzip"}), Coding::kGzip);
  EXPECT_EQ(chosen({"zstd;q=0.1234, gzip"}), Coding::kGzip);   // four decimals
  EXPECT_EQ(chosen({"zstd;q=, gzip"}), Coding::kGzip);
  EXPECT_EQ(chosen({"zstd;q=abc, gzip"}), Coding::kGzip);
  EXPECT_EQ(chosen({"zstd;q = 1, gzip"}), Coding::kGzip);      // no space around '='
  EXPECT_EQ(chosen({"zstd;level=3, gzip"}), Coding::kGzip);    // not a weight
  EXPECT_EQ(chosen({"zstd;q=1;q=1, gzip"}), Coding::kGzip);    // two parameters
  EXPECT_EQ(chosen({"zs td, gzip"}), Coding::kGzip);           // not a token
  EXPECT_EQ(chosen({"\"zstd\", gzip"}), Coding::kGzip);
  EXPECT_EQ(chosen({";q=1, gzip"}), Coding::kGzip);            // no name
}

TEST(AcceptEncoding, GarbageIsIdentity) {
  EXPECT_EQ(chosen({"@@@, ;;;, q=1, \x7f"}), Coding::kIdentity);
  EXPECT_EQ(chosen({"gzip;q=0.5;"}), Coding::kIdentity);  // a trailing ';' is not a weight
}

TEST(AcceptEncoding, WeightGrammar) {
  // RFC 9110 12.4.2: "0" ["." 0*3DIGIT] / "1" ["." 0*3("0")].
  const std::pair<std::string_view, int16_t> good[] = {{"q=1", 1000},  {"q=1.", 1000},  {"q=1.0", 1000},
                                                       {"q=1.000", 1000}, {"q=0", 0},      {"q=0.", 0},
                                                       {"q=0.9", 900},  {"q=0.99", 990}, {"q=0.999", 999},
                                                       {"q=0.05", 50},  {"Q=0.007", 7}};
  for (const auto& [text, thousandths] : good) {
    AcceptedCodings accepted;
    accepted.add_field(std::string("gzip;") + std::string(text));
    EXPECT_EQ(accepted.gzip, thousandths) << text;
  }
  for (std::string_view bad : {"q=1.001", "q=1.0000", "q=01", "q=.5", "q=-0", "q=0.5x", "q=+1"}) {
    AcceptedCodings accepted;
    accepted.add_field(std::string("gzip;") + std::string(bad));
    EXPECT_EQ(accepted.gzip, AcceptedCodings::kUnrated) << bad;
  }
  AcceptedCodings accepted;
  accepted.add_field("gzip;q=0.25, zstd;q=0.5, identity;q=0, *;q=1");
  EXPECT_EQ(accepted.gzip, 250);
  EXPECT_EQ(accepted.zstd, 500);
  EXPECT_EQ(accepted.identity, 0);
  EXPECT_EQ(accepted.any, 1000);
}

}  // namespace
}  // namespace http::content_coding
