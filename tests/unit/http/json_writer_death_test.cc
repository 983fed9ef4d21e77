// The JSON writer's nesting holds in Release (runtime/check.h): one bit per level in a
// 64-bit word, so a level past kMaxDepth, or an end without its begin, stops the process
// rather than shift past the word and misplace commas.
#include <gtest/gtest.h>

#include <string>

#include "http/json_writer.h"

namespace http {
namespace {

TEST(JsonWriterDeathTest, NestingPastTheBoundStops) {
  std::string out;
  JsonWriter json(out);
  for (int level = 0; level < JsonWriter::kMaxDepth; ++level) json.begin_array();
  EXPECT_DEATH(json.begin_object(), "check failed: .*JSON nested deeper than the writer's bound");
}

TEST(JsonWriterDeathTest, EndingAnObjectNeverBegunStops) {
  std::string out;
  JsonWriter json(out);
  EXPECT_DEATH(json.end_object(), "check failed: .*JSON object ended that was never begun");
}

}  // namespace
}  // namespace http
