// The JSON host: request objects read in place through the list and map interfaces.
#include "cel/json_host.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel/limits.h"

namespace cel {
namespace {

class CelJsonHost : public ::testing::Test {
 protected:
  Value parse(std::string_view json) {
    json_ = json;
    EXPECT_EQ(parser_.parse(json_).get(document_), simdjson::SUCCESS);
    return json_value(document_, arena_);
  }

  std::string json_;
  simdjson::dom::parser parser_;
  simdjson::dom::element document_;
  Arena arena_{kDefaultArenaBytesMax};
};

TEST_F(CelJsonHost, StringsAreViewsIntoTheDocument) {
  const Value map = parse(R"({"name": "alice"})");
  const std::optional<Value> name = map.as_map().find(Value::string("name"), arena_);
  ASSERT_TRUE(name);
  EXPECT_EQ(name->as_text(), "alice");
  // Not a copy in the arena: only the map view itself took arena bytes.
  EXPECT_EQ(arena_.bytes_used(), sizeof(JsonMap));
}

TEST_F(CelJsonHost, MapsFindStringKeysOnly) {
  const Value map = parse(R"({"1": "one"})");
  EXPECT_TRUE(map.as_map().find(Value::string("1"), arena_));
  EXPECT_FALSE(map.as_map().find(Value::integer(1), arena_));
  EXPECT_FALSE(map.as_map().find(Value::string("2"), arena_));
  EXPECT_EQ(map.as_map().size(), 1u);
}

TEST_F(CelJsonHost, MapKeysAndListElementsIterateInDocumentOrder) {
  const Value map = parse(R"({"b": 1, "a": [3, 2]})");
  std::vector<std::string> keys;
  map.as_map().for_each_key(
      [&](const Value& key) {
        keys.emplace_back(key.as_text());
        return true;
      },
      arena_);
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a"}));

  const Value list = *map.as_map().find(Value::string("a"), arena_);
  ASSERT_EQ(list.kind(), Kind::kList);
  std::vector<int64_t> items;
  list.as_list().for_each(
      [&](const Value& item) {
        items.push_back(item.as_int());
        return true;
      },
      arena_);
  EXPECT_EQ(items, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(list.as_list().at(1, arena_).as_int(), 2);
}

TEST_F(CelJsonHost, ListElementsByIndexInAnyOrder) {
  // at() resumes from the index it last reached; going back starts over.
  const Value list = parse("[10, 11, 12, 13, 14, 15]");
  const ListValue& items = list.as_list();
  for (size_t index : {0, 1, 2, 4, 5, 3, 1, 5, 0, 5}) {
    EXPECT_EQ(items.at(index, arena_).as_int(), static_cast<int64_t>(10 + index)) << index;
  }
}

TEST_F(CelJsonHost, NumbersByTheirJsonForm) {
  const Value list = parse("[21, -21, 9223372036854775808, 21.0, 2.1e1, true, null, \"s\"]");
  std::vector<Kind> kinds;
  list.as_list().for_each(
      [&](const Value& item) {
        kinds.push_back(item.kind());
        return true;
      },
      arena_);
  EXPECT_EQ(kinds, (std::vector<Kind>{Kind::kInt, Kind::kInt, Kind::kUint, Kind::kDouble,
                                      Kind::kDouble, Kind::kBool, Kind::kNull, Kind::kString}));
}

TEST_F(CelJsonHost, AFullArenaYieldsAnErrorValue) {
  Arena tiny(8);
  const simdjson::dom::element document = parser_.parse(std::string(R"({"a": 1})")).value_unsafe();
  const Value map = json_value(document, tiny);
  ASSERT_TRUE(map.is_error());
  EXPECT_EQ(map.error_code(), ErrorCode::kLimitExceeded);
}

}  // namespace
}  // namespace cel
