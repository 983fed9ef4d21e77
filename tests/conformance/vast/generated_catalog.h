#pragma once
// The fixture every generated-catalog test starts from: the catalog written, decisiond
// serving it, one decision per ad, and each VAST document (vast_xml and vast_tag ads)
// written to a scratch file for the outside tools.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/conformance/vast/tool_runs.h"
#include "tests/conformance/vast/vast_server.h"
#include "tests/conformance/vast/video_catalog.h"

namespace conformance::vast {

// 48 ads: 16 per delivery, each structural variation cycling through them.
inline constexpr uint32_t kCatalogSeed = 20251101;
inline constexpr size_t kAdCount = 48;

struct ServedDocument {
  const ServedAd* served = nullptr;
  std::string file;  // the document as served
  const VideoAdSpec& ad() const { return *served->ad; }
};

class GeneratedCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override;

  VideoCatalog catalog_;
  std::unique_ptr<VastServer> server_;
  std::vector<ServedAd> served_;
  ScratchDir scratch_;
  std::vector<ServedDocument> documents_;
  std::vector<std::string> document_files_;  // documents_' files, in order
};

// "ad 1003 (vast_tag)": for SCOPED_TRACE.
std::string describe(const VideoAdSpec& ad);

}  // namespace conformance::vast
