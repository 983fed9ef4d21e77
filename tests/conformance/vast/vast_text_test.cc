// Catalog text the loader accepts that the generated catalog leaves out, one ad at a
// time: what a player reads of it must be what the catalog says, without a VAST-warning.
#include <gtest/gtest.h>

#include <functional>

#include "tests/conformance/vast/player_output.h"
#include "tests/conformance/vast/tool_runs.h"
#include "tests/conformance/vast/vast_server.h"

namespace conformance::vast {
namespace {

using integration::array_member;
using integration::string_member;
using simdjson::dom::element;

// A one-ad catalog (vast_xml, English only), changed by edit, served once and read by the
// player; the test reads the output.
class VastText : public ::testing::Test {
 protected:
  void serve(const std::function<void(VideoCatalog&, VideoAdSpec&)>& edit) {
    catalog_ = generate_video_catalog(7, 1);
    VideoAdSpec& ad = catalog_.ads[0];
    ASSERT_EQ(ad.delivery, "vast_xml");
    ad.contents.resize(1);
    ad.accept_language = "en";
    ad.served_contents = 0;
    edit(catalog_, ad);
    const VastServer server(catalog_.json());
    ASSERT_TRUE(server.serving()) << server.start_error();
    const std::vector<ServedAd> served = serve_every_ad(server, catalog_);
    ASSERT_EQ(served.size(), 1u);
    ASSERT_EQ(served[0].problem, "");
    outputs_ = read_with_player({scratch_.write("ad.xml", served[0].document)}, false);
    ASSERT_EQ(outputs_[0].exit_code, 0) << outputs_[0].stderr_text;
    ASSERT_TRUE(outputs_[0].json.ok());
    const std::vector<element> ads = array_member(outputs_[0].json.root(), "ads");
    ASSERT_EQ(ads.size(), 1u);
    ad_ = ads[0];
  }

  std::string warnings() const { return simdjson::to_string(*integration::member(outputs_[0].json.root(), "warnings")); }

  VideoCatalog catalog_;
  ScratchDir scratch_;
  std::vector<PlayerOutput> outputs_;
  element ad_;
};

// XML parsers turn a literal CR, and CR LF, into LF (XML 1.0 section 2.11), in CDATA too:
// a CR survives only as a character reference (&#13;).
TEST_F(VastText, CarriageReturnsInCatalogTextReachThePlayerAsWritten) {
  const std::string kText = "line one\rline two\r\nline three";
  serve([&](VideoCatalog& catalog, VideoAdSpec& ad) {
    ad.contents[0].items = {{"title", "title " + kText}, {"description", "description " + kText}};
    catalog.advertisers[ad.advertiser].name = "advertiser " + kText;
    ad.verifications = {{"vendor " + kText, "https://verify.example.com/omid.js", false, "parameters " + kText, true}};
  });
  if (HasFatalFailure()) return;
  const std::vector<element> verifications = array_member(ad_, "adVerifications");
  ASSERT_EQ(verifications.size(), 1u);
  EXPECT_EQ(string_member(verifications[0], "vendor"), "vendor " + kText);  // an attribute
  EXPECT_EQ(string_member(ad_, "title"), "title " + kText);
  EXPECT_EQ(string_member(ad_, "description"), "description " + kText);
  EXPECT_EQ(string_member(ad_, "advertiser"), "advertiser " + kText);
  EXPECT_EQ(string_member(verifications[0], "parameters"), "parameters " + kText);
}

// Content values are strings, empty ones included (validate_creatives.cc); AdTitle is
// required and players warn on an empty leaf element.
TEST_F(VastText, AnEmptyTitleOrDescriptionDrawsNoPlayerWarning) {
  serve([](VideoCatalog&, VideoAdSpec& ad) {
    ad.contents[0].items = {{"title", ""}, {"description", " "}, {"cta", "Book now"}};
  });
  if (HasFatalFailure()) return;
  EXPECT_EQ(array_member(outputs_[0].json.root(), "warnings").size(), 0u) << warnings();
}

}  // namespace
}  // namespace conformance::vast
