// --max-catalog-bytes bounds the body of POST /admin/catalog (docs/flags.md): a catalog
// of exactly that many bytes is taken, one byte more is 413 10003 and the catalog in force
// stays.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/metrics_scrape.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration::updates {
namespace {

constexpr int kBodyTooLarge = 10003;

// A valid catalog of exactly `bytes` bytes: trailing white space is still JSON.
std::string catalog_of_size(size_t bytes, std::string_view revision) {
  std::string catalog = with_revision(test_catalog_json({{1, "slot"}}, {{.id = 4, .placement_ids = {1}}}), revision);
  if (catalog.size() < bytes) catalog.append(bytes - catalog.size(), ' ');
  return catalog;
}

void ExpectBoundAt(size_t limit_bytes, const std::string& flag) {
  ServerProcess server(standard_flags({"--max-catalog-bytes=" + flag}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  const CurlReply at_limit = upload_catalog(server, catalog_of_size(limit_bytes, "at-limit"));
  ASSERT_TRUE(at_limit.ok) << at_limit.error;
  EXPECT_EQ(at_limit.status, 200) << at_limit.body;
  EXPECT_EQ(served_revision(server), "at-limit");

  const CurlReply over = upload_catalog(server, catalog_of_size(limit_bytes + 1, "over-limit"));
  ASSERT_TRUE(over.ok) << over.error;
  EXPECT_EQ(over.status, 413) << over.body.substr(0, 300);
  EXPECT_TRUE(IsErrorEnvelope(over.body, kBodyTooLarge));
  EXPECT_EQ(served_revision(server), "at-limit");
  EXPECT_EQ(sum_samples(scrape_metrics(server), "decisiond_http_limit_hits_total",
                        {{"listener", "admin"}, {"limit", "body_bytes"}}),
            1.0);
}

TEST(CatalogSizeLimit, CatalogBodyOverMaxCatalogBytesIs413) { ExpectBoundAt(size_t{256} << 10, "256KiB"); }

// Below --max-body-bytes (64 KiB by default) as well: the flag says it bounds catalog bodies.
TEST(CatalogSizeLimit, CatalogBodyOverASmallMaxCatalogBytesIs413) { ExpectBoundAt(size_t{8} << 10, "8KiB"); }

}  // namespace
}  // namespace integration::updates
