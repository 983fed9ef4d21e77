#include "runtime/log/level.h"

#include "gtest/gtest.h"

namespace runtime::log {
namespace {

TEST(LogLevel, TheFourNamesOfTheFlagParseAndNameThemselves) {
  for (Level level : {Level::kError, Level::kWarn, Level::kInfo, Level::kDebug}) {
    EXPECT_EQ(parse_level(level_name(level)), level) << level_name(level);
  }
  EXPECT_EQ(level_name(Level::kWarn), "warn");
}

TEST(LogLevel, AnythingElseIsRefused) {
  for (const char* name : {"", "INFO", "warning", "verbose", "trace", "fatal", "info "}) {
    EXPECT_FALSE(parse_level(name).has_value()) << name;
  }
}

TEST(LogLevel, MoreSevereIsLess) {
  EXPECT_LT(Level::kError, Level::kWarn);
  EXPECT_LT(Level::kWarn, Level::kInfo);
  EXPECT_LT(Level::kInfo, Level::kDebug);
}

}  // namespace
}  // namespace runtime::log
