// Rendering of error paths.
#include "decision/request/json_path.h"

#include <array>
#include <string>

#include "gtest/gtest.h"

namespace decision::request {
namespace {

std::string render(const JsonPath& path) {
  std::array<char, 256> buffer;
  return std::string(buffer.data(), path.render(buffer));
}

TEST(JsonPath, KeysJoinWithDotsAndIndexesInBrackets) {
  JsonPath path;
  path.push_key("placements");
  path.push_index(2);
  path.push_key("targeting");
  path.push_key("location");
  path.push_index(1);
  path.push_key("lat");
  EXPECT_EQ(render(path), "placements[2].targeting.location[1].lat");
  path.pop();
  path.pop();
  EXPECT_EQ(render(path), "placements[2].targeting.location");
}

TEST(JsonPath, KeyThatIsNotAPlainNameIsQuoted) {
  JsonPath path;
  path.push_key("custom");
  path.push_key("a.b \"c\"\\\n");
  EXPECT_EQ(render(path), R"(custom["a.b \"c\"\\\u000a"])");
  path.pop();
  path.push_key("");
  EXPECT_EQ(render(path), R"(custom[""])");
}

TEST(JsonPath, TooLongForTheBufferRendersNothing) {
  JsonPath path;
  path.push_key("placements");
  std::array<char, 5> small;
  EXPECT_EQ(path.render(small), 0u);
}

TEST(JsonPath, PushesPastTheBoundNameTheDeepestKeptAncestor) {
  JsonPath path;
  for (size_t i = 0; i < JsonPath::kMaxSegments + 3; ++i) path.push_index(static_cast<uint32_t>(i));
  EXPECT_EQ(path.size(), JsonPath::kMaxSegments);
  for (int i = 0; i < 3; ++i) path.pop();
  EXPECT_EQ(path.size(), JsonPath::kMaxSegments);
  path.pop();
  EXPECT_EQ(path.size(), JsonPath::kMaxSegments - 1);
}

}  // namespace
}  // namespace decision::request
