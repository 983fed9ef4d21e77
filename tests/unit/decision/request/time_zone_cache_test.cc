// user.timezone names: syntax, lookup, and the cache that spares the file system.
#include "decision/request/time_zone_cache.h"

#include "gtest/gtest.h"

namespace decision::request {
namespace {

TEST(TimeZoneCache, KnownNamesLoadOnceEach) {
  TimeZoneCache cache;
  ASSERT_TRUE(cache.find("Europe/Paris"));
  EXPECT_EQ(cache.find("Europe/Paris")->name(), "Europe/Paris");
  EXPECT_TRUE(cache.find("America/New_York"));
  EXPECT_EQ(cache.loads(), 2u);
}

TEST(TimeZoneCache, UnknownNamesAreRememberedToo) {
  TimeZoneCache cache;
  EXPECT_FALSE(cache.find("Europe/Atlantis"));
  EXPECT_FALSE(cache.find("Europe/Atlantis"));
  EXPECT_EQ(cache.loads(), 1u);
}

TEST(TimeZoneCache, NamesThatCannotBeZonesNeverTouchTheFileSystem) {
  TimeZoneCache cache;
  for (const char* name : {"/etc/passwd", "../etc/passwd", "Europe/./Paris", "localtime",
                           "right/UTC", "posix/UTC", "file:/etc/localtime", "Fixed/UTC+01:00",
                           "Europe Paris", "1Europe", "Europe/_x", "", "Europe/Paris/",
                           "ThisNameIsFarTooLongToBeAnyIanaTimeZoneNameEverWrittenDownInTheDatabase"}) {
    EXPECT_FALSE(TimeZoneCache::is_zone_name_syntax(name)) << name;
    EXPECT_FALSE(cache.find(name)) << name;
  }
  EXPECT_EQ(cache.loads(), 0u);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(TimeZoneCache, IsBounded) {
  TimeZoneCache cache;
  for (size_t i = 0; i < TimeZoneCache::kMaxEntries + 10; ++i) {
    cache.find("Nowhere/Zone" + std::to_string(i));
  }
  EXPECT_EQ(cache.size(), TimeZoneCache::kMaxEntries);
  EXPECT_EQ(cache.uncached(), 10u);
}

}  // namespace
}  // namespace decision::request
