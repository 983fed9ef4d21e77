// The core's spare buffers: what a connection borrows it keeps until it gives it back, what
// it gives back another borrows, and both bounds hold.
#include "runtime/spare_buffers.h"

#include <string>

#include "gtest/gtest.h"

namespace runtime {
namespace {

const size_t kInline = std::string().capacity();

TEST(SpareBuffers, ABufferGivenBackIsLentAgainWithItsCapacityAndNoBytes) {
  SpareBuffers spares;
  std::string first(3000, 'x');
  const char* memory = first.data();
  spares.take_back(first);
  EXPECT_LE(first.capacity(), kInline) << "the one who gave it back holds no memory";
  EXPECT_EQ(spares.kept(), 1u);
  std::string second;
  spares.lend(second);
  EXPECT_EQ(second.data(), memory) << "the same memory, not a new allocation";
  EXPECT_TRUE(second.empty());
  EXPECT_GE(second.capacity(), 3000u);
  EXPECT_EQ(spares.kept(), 0u);
}

TEST(SpareBuffers, ABufferWithItsOwnCapacityKeepsItAndItsBytes) {
  SpareBuffers spares;
  std::string spare(1000, 's');
  spares.take_back(spare);
  std::string own(100, 'o');
  const char* memory = own.data();
  spares.lend(own);
  EXPECT_EQ(own.data(), memory);
  EXPECT_EQ(own, std::string(100, 'o'));
  EXPECT_EQ(spares.kept(), 1u);
}

TEST(SpareBuffers, InlineBytesSurviveBeingLentASpare) {
  SpareBuffers spares;
  std::string spare(1000, 's');
  spares.take_back(spare);
  std::string small = "GET";
  spares.lend(small);
  EXPECT_EQ(small, "GET");
  EXPECT_GE(small.capacity(), 1000u);
}

TEST(SpareBuffers, WithNoSpareTheBufferIsLeftToGrowOnItsOwn) {
  SpareBuffers spares;
  std::string buffer;
  spares.lend(buffer);
  EXPECT_LE(buffer.capacity(), kInline);
  buffer.append(5000, 'x');
  EXPECT_EQ(buffer.size(), 5000u);
}

TEST(SpareBuffers, NoMoreThanMostKeptAreKeptAndTheRestAreFreed) {
  SpareBuffers spares(/*most_kept=*/2, /*largest_kept_bytes=*/4096);
  for (int i = 0; i < 5; ++i) {
    std::string buffer(100, 'x');
    spares.take_back(buffer);
    EXPECT_LE(buffer.capacity(), kInline);
  }
  EXPECT_EQ(spares.kept(), 2u);
}

TEST(SpareBuffers, ABufferLargerThanLargestKeptIsFreedNotKept) {
  SpareBuffers spares(/*most_kept=*/8, /*largest_kept_bytes=*/4096);
  std::string large(10000, 'x');
  spares.take_back(large);
  EXPECT_EQ(spares.kept(), 0u);
  EXPECT_LE(large.capacity(), kInline);
}

TEST(SpareBuffers, ABufferHoldingNoMemoryIsNotKept) {
  SpareBuffers spares;
  std::string small = "abc";
  spares.take_back(small);
  EXPECT_EQ(spares.kept(), 0u);
  EXPECT_TRUE(small.empty());
}

}  // namespace
}  // namespace runtime
