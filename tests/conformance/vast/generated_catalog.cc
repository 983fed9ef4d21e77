#include "tests/conformance/vast/generated_catalog.h"

#include <cstdlib>
#include <filesystem>

namespace conformance::vast {

std::string describe(const VideoAdSpec& ad) { return "ad " + std::to_string(ad.id) + " (" + ad.delivery + ")"; }

void GeneratedCatalogTest::SetUp() {
  catalog_ = generate_video_catalog(kCatalogSeed, kAdCount);
  server_ = std::make_unique<VastServer>(catalog_.json());
  ASSERT_TRUE(server_->serving()) << server_->start_error();
  served_ = serve_every_ad(*server_, catalog_);
  for (const ServedAd& served : served_) {
    SCOPED_TRACE(describe(*served.ad));
    ASSERT_EQ(served.problem, "");
    ASSERT_EQ(served.delivery, served.ad->delivery);
    if (served.ad->delivery == "json") continue;
    ASSERT_FALSE(served.document.empty());
    const std::string file = scratch_.write("ad-" + std::to_string(served.ad->id) + ".xml", served.document);
    documents_.push_back({&served, file});
    document_files_.push_back(file);
  }
  // To look at what was served: VAST_CONFORMANCE_KEEP_DIR=<existing directory>.
  if (const char* keep = std::getenv("VAST_CONFORMANCE_KEEP_DIR")) {
    std::error_code ignored;
    scratch_.write("catalog.json", catalog_.json());
    std::filesystem::copy(scratch_.path(), keep,
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing,
                          ignored);
  }
}

}  // namespace conformance::vast
