// The version check's invariants stay checked in Release (runtime/check.h): what a served
// reply reads is there, and an error is never written for a served version.
#include <gtest/gtest.h>

#include "absl/time/civil_time.h"
#include "api_versions/calendar_day.h"
#include "api_versions/version_errors.h"
#include "api_versions/version_resolver.h"
#include "http/response.h"

namespace api_versions {
namespace {

TEST(VersionChecksDeathTest, AnUnservedResolutionHasNoVersionToEcho) {
  Resolution refused;
  refused.status = kBadVersionStatus;
  EXPECT_DEATH((void)refused.version(), "check failed");
}

TEST(VersionChecksDeathTest, AServedResolutionIsNotWrittenAsAnError) {
  const VersionTable table = VersionTable::built_in();
  VersionResolver resolver(table, kDecisionVersionHeader);
  const Resolution& served = resolver.resolve("2025-11-01", absl::CivilDay(2026, 1, 1));
  ASSERT_TRUE(served.served());
  http::Response response;
  EXPECT_DEATH(VersionResolver::write_error(served, response), "check failed");
}

TEST(VersionChecksDeathTest, ADayPastYear9999IsNeverWritten) {
  EXPECT_DEATH((void)day_text(absl::CivilDay(10000, 1, 1)), "check failed");
}

}  // namespace
}  // namespace api_versions
