#include "decision/endpoint/request_ids.h"

#include <gtest/gtest.h>

#include <set>

namespace decision::endpoint {
namespace {

TEST(RequestIds, UniqueAcrossRequestsCoresAndStarts) {
  std::set<tracking::RequestId> seen;
  for (int64_t start : {1'000'000'000'000'000'000, 1'000'000'000'000'000'001}) {
    for (uint32_t core : {0u, 1u, 300u}) {
      RequestIds ids(start, core);
      for (int i = 0; i < 1000; ++i) EXPECT_TRUE(seen.insert(ids.next()).second);
    }
  }
  EXPECT_EQ(seen.size(), 6000u);
}

TEST(RequestIds, LayoutIsStartCoreSequenceBigEndian) {
  RequestIds ids(0x0102030405060708, 0x090a);
  ids.next();
  const tracking::RequestId second = ids.next();
  const tracking::RequestId expected = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(second, expected);
}

}  // namespace
}  // namespace decision::endpoint
