// The bodies of 400 10042, 410 10043 and warning 20002, read back by an independent parser.
#include "api_versions/version_errors.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "tests/unit/api_versions/version_fixture.h"

namespace api_versions {
namespace {

using testing::kScheduledTable;
using testing::table_from;

const std::vector<std::string_view> kActive = {"2025-11-01", "2026-05-01"};

std::vector<std::string_view> strings_of(simdjson::dom::array array) {
  std::vector<std::string_view> out;
  for (simdjson::dom::element item : array) out.push_back(std::string_view(item.get_string()));
  return out;
}

TEST(VersionErrors, SunsetErrorDetailsCarryEveryMember) {
  const VersionTable table = table_from(kScheduledTable);
  std::string body;
  append_sunset_version_error(body, table.entries()[0], kActive);

  simdjson::dom::parser parser;
  simdjson::dom::object root;
  ASSERT_FALSE(parser.parse(simdjson::padded_string(body)).get_object().get(root)) << body;
  EXPECT_EQ(bool(root["success"]), false);
  EXPECT_TRUE(root["data"].is_null());
  EXPECT_TRUE(root["warnings"].is_null());
  simdjson::dom::array errors = root["errors"];
  ASSERT_EQ(errors.size(), 1u);
  simdjson::dom::object error = errors.at(0);
  EXPECT_EQ(int64_t(error["code"]), 10043);
  EXPECT_FALSE(std::string_view(error["message"]).empty());
  simdjson::dom::object details = error["details"];
  EXPECT_EQ(details.size(), 4u);
  EXPECT_EQ(std::string_view(details["deprecated_version"]), "2025-01-01");
  EXPECT_EQ(strings_of(details["active_versions"]), kActive);
  EXPECT_EQ(std::string_view(details["migration_guide"]),
            "https://docs.example.com/migrate/2025-11-01");
  EXPECT_EQ(std::string_view(details["sunset_date"]), "2026-07-01");
}

TEST(VersionErrors, SunsetErrorIsTheEnvelopeByteForByte) {
  const VersionTable table = table_from(kScheduledTable);
  std::string body;
  append_sunset_version_error(body, table.entries()[0], kActive);
  EXPECT_EQ(body,
            R"({"success":false,"data":null,"errors":[{"code":10043,)"
            R"("message":"API version 2025-01-01 was sunset on 2026-07-01; )"
            R"(use one of active_versions",)"
            R"("details":{"deprecated_version":"2025-01-01",)"
            R"("active_versions":["2025-11-01","2026-05-01"],)"
            R"("migration_guide":"https://docs.example.com/migrate/2025-11-01",)"
            R"("sunset_date":"2026-07-01"}}],"warnings":null})");
}

TEST(VersionErrors, SunsetErrorWithoutGuideOmitsMigrationGuide) {
  const VersionTable table = table_from(
      R"([{"version": "2025-01-01", "release": "2025-01-01", "sunset": "2026-07-01"}])");
  std::string body;
  append_sunset_version_error(body, table.entries()[0], {});
  simdjson::dom::parser parser;
  simdjson::dom::object details;
  ASSERT_FALSE(parser.parse(simdjson::padded_string(body))["errors"].at(0)["details"]
                   .get_object()
                   .get(details));
  EXPECT_EQ(details["migration_guide"].error(), simdjson::NO_SUCH_FIELD);
  EXPECT_EQ(strings_of(details["active_versions"]), std::vector<std::string_view>{});
  EXPECT_EQ(std::string_view(details["sunset_date"]), "2026-07-01");
}

TEST(VersionErrors, BadVersionDetailsListActiveVersions) {
  std::string body;
  append_bad_version_error(body, "X-Decision-Version", kActive);
  EXPECT_EQ(body,
            R"({"success":false,"data":null,"errors":[{"code":10042,)"
            R"json("message":"X-Decision-Version must be exactly one of active_versions )json"
            R"json((YYYY-MM-DD)",)json"
            R"("details":{"active_versions":["2025-11-01","2026-05-01"]}}],"warnings":null})");
}

TEST(VersionErrors, DeprecationWarningCarriesSunsetDateAndGuide) {
  const VersionTable table = table_from(kScheduledTable);
  std::string item;
  append_version_warning(item, table.entries()[0], Phase::kDeprecated, {});
  EXPECT_EQ(item,
            R"({"code":20002,"message":"API version 2025-01-01 is deprecated; )"
            R"(it will be sunset on 2026-07-01",)"
            R"("details":{"sunset_date":"2026-07-01",)"
            R"("migration_guide":"https://docs.example.com/migrate/2025-11-01"}})");
}

TEST(VersionErrors, MaintenanceWarningSaysMaintenance) {
  const VersionTable table = table_from(kScheduledTable);
  std::string item;
  append_version_warning(item, table.entries()[0], Phase::kMaintenance, {});
  EXPECT_NE(item.find("is in maintenance"), std::string::npos) << item;
}

TEST(VersionErrors, ADueSunsetNoticeSaysTheDaysLeftAndTheNoticeDue) {
  const VersionTable table = table_from(kScheduledTable);
  std::string item;
  append_version_warning(item, table.entries()[0], Phase::kActive, SunsetNotice{45, 60});
  EXPECT_EQ(item,
            R"({"code":20002,"message":"API version 2025-01-01 will be sunset on 2026-07-01, in 45 days",)"
            R"("details":{"sunset_date":"2026-07-01","days_left":60,)"
            R"("migration_guide":"https://docs.example.com/migrate/2025-11-01"}})");
  item.clear();
  append_version_warning(item, table.entries()[0], Phase::kDeprecated, SunsetNotice{1, 7});
  EXPECT_NE(item.find("is deprecated; it will be sunset on 2026-07-01, in 1 day\""), std::string::npos) << item;
  EXPECT_NE(item.find(R"("days_left":7)"), std::string::npos) << item;
}

}  // namespace
}  // namespace api_versions
