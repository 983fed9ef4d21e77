// The shipping checkpoint file (tracking/event_shipping/ship_checkpoint.h).
#include "tracking/event_shipping/ship_checkpoint.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "tests/unit/tracking/event_shipping/log_dir.h"

namespace tracking::event_shipping {
namespace {

TEST(ShipCheckpoint, WhatIsWrittenIsReadBack) {
  LogDir log;
  const ShipCheckpoint written{123456789012345ull, {123456789000000ull, 268435456ull}, 987654321ull};
  ASSERT_TRUE(write_checkpoint(log.core_dir(0), written, true).ok());
  const absl::StatusOr<std::optional<ShipCheckpoint>> read = read_checkpoint(log.core_dir(0));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ(**read, written);
  ASSERT_TRUE(write_checkpoint(log.core_dir(0), ShipCheckpoint{1, {2, 3}, 4}, false).ok());
  EXPECT_EQ(**read_checkpoint(log.core_dir(0)), (ShipCheckpoint{1, {2, 3}, 4}));
}

TEST(ShipCheckpoint, NoneMeansNothingWasPublished) {
  LogDir log;
  const absl::StatusOr<std::optional<ShipCheckpoint>> read = read_checkpoint(log.core_dir(0));
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read->has_value());
}

TEST(ShipCheckpoint, AFileThatIsNotOneIsRefused) {
  LogDir log;
  for (const char* text : {"", "next_seq=1\n", "next_seq=1 file=2 offset=3 stream_floor=4", "next_seq=x file=2 offset=3 "
                                                                                            "stream_floor=4\n",
                           "next_seq=1 file=2 offset=3 stream_floor=4\nmore\n"}) {
    std::ofstream(checkpoint_path(log.core_dir(0)), std::ios::trunc) << text;
    EXPECT_FALSE(read_checkpoint(log.core_dir(0)).ok()) << text;
  }
}

TEST(ShipCheckpoint, ItIsNotALogFileAndLeavesNoTemporaryFileBehind) {
  LogDir log;
  ASSERT_TRUE(write_checkpoint(log.core_dir(0), ShipCheckpoint{}, true).ok());
  EXPECT_TRUE(events::list_log_files(log.core_dir(0)).empty());
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(log.core_dir(0))) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(ShipCheckpoint, ADirectoryTheDiskRefusesIsAnError) {
  EXPECT_FALSE(write_checkpoint("/nonexistent/events/core-0", ShipCheckpoint{}, false).ok());
}

}  // namespace
}  // namespace tracking::event_shipping
