// targeting.custom (10019).
#include "reader_fixture.h"

namespace decision::request {
namespace {

using Custom = ReaderTest;

TEST_F(Custom, ScalarsAreReadWithTheirLiterals) {
  ASSERT_TRUE(read(with_targeting(R"({"custom":{"tier":"gold","age":18.50,"big":1e300,"vip":false,"esc":"a\"b"}})")).ok());
  const Targeting& t = placement().targeting;
  EXPECT_EQ(t.custom_json, R"({"tier":"gold","age":18.50,"big":1e300,"vip":false,"esc":"a\"b"})");
  ASSERT_EQ(t.custom().size(), 5u);
  EXPECT_EQ(t.custom()[0].value.text, "gold");
  EXPECT_EQ(t.custom()[1].value.kind, CustomKind::kNumber);
  EXPECT_EQ(t.custom()[1].value.number, 18.5);
  EXPECT_EQ(t.custom()[1].value.text, "18.50");
  EXPECT_EQ(t.custom()[2].value.number, 1e300);
  EXPECT_EQ(t.custom()[3].value.kind, CustomKind::kBool);
  EXPECT_FALSE(t.custom()[3].value.boolean);
  EXPECT_EQ(t.custom()[3].value.text, "false");
  EXPECT_EQ(t.custom()[4].value.text, "a\"b");
}

TEST_F(Custom, NumbersKeepWhetherTheyWereWrittenAsIntegers) {
  ASSERT_TRUE(read(with_targeting(R"({"custom":{"i":-27,"d":27.0,"e":27e0,"u":18446744073709551615,)"
                                  R"("huge":18446744073709551616,"list":[3,3.5]}})")).ok());
  const Targeting& t = placement().targeting;
  ASSERT_EQ(t.custom().size(), 6u);
  EXPECT_EQ(t.custom()[0].value.number_kind, CustomNumber::kInt);
  EXPECT_EQ(t.custom()[0].value.int_number, -27);
  EXPECT_EQ(t.custom()[1].value.number_kind, CustomNumber::kDouble);
  EXPECT_EQ(t.custom()[2].value.number_kind, CustomNumber::kDouble);
  EXPECT_EQ(t.custom()[3].value.number_kind, CustomNumber::kUint);
  EXPECT_EQ(t.custom()[3].value.uint_number, UINT64_MAX);
  EXPECT_EQ(t.custom()[4].value.number_kind, CustomNumber::kDouble);  // past uint64
  EXPECT_EQ(t.custom()[4].value.number, 18446744073709551616.0);
  EXPECT_EQ(t.items(t.custom()[5])[0].number_kind, CustomNumber::kInt);
  EXPECT_EQ(t.items(t.custom()[5])[1].number_kind, CustomNumber::kDouble);
}

TEST_F(Custom, ArraysOfScalarsAreRead) {
  ASSERT_TRUE(read(with_targeting(R"({"custom":{"tags":["news", "sport"],"none":[],"mixed":[1,true,"x"]}})")).ok());
  const Targeting& t = placement().targeting;
  ASSERT_EQ(t.custom().size(), 3u);
  EXPECT_EQ(t.custom()[0].value.kind, CustomKind::kArray);
  EXPECT_EQ(t.custom()[0].value.text, R"(["news", "sport"])");
  ASSERT_EQ(t.items(t.custom()[0]).size(), 2u);
  EXPECT_EQ(t.items(t.custom()[0])[1].text, "sport");
  EXPECT_TRUE(t.items(t.custom()[1]).empty());
  EXPECT_EQ(t.custom()[1].value.text, "[]");
  ASSERT_EQ(t.items(t.custom()[2]).size(), 3u);
  EXPECT_EQ(t.items(t.custom()[2])[0].kind, CustomKind::kNumber);
  EXPECT_EQ(t.items(t.custom()[2])[1].kind, CustomKind::kBool);
  EXPECT_EQ(t.items(t.custom()[2])[2].kind, CustomKind::kString);
}

TEST_F(Custom, NestedObjectIs10019AtItsKey) {
  EXPECT_EQ(only_error(with_targeting(R"({"custom":{"ok":1,"profile":{"age":18}}})")),
            (Error{10019, "placements[0].targeting.custom.profile"}));
  EXPECT_EQ(result_.errors[0].message,
            "custom values must be strings, numbers, booleans or arrays of those");
}

TEST_F(Custom, NullValueIs10019) {
  EXPECT_EQ(only_error(with_targeting(R"({"custom":{"tier":null}})")),
            (Error{10019, "placements[0].targeting.custom.tier"}));
}

TEST_F(Custom, ArrayOfArraysOrObjectsIs10019AtItsItem) {
  read(with_targeting(R"({"custom":{"tags":["a",["b"],{"c":1},null]}})"));
  EXPECT_EQ(errors(), (std::vector<Error>{{10019, "placements[0].targeting.custom.tags[1]"},
                                          {10019, "placements[0].targeting.custom.tags[2]"},
                                          {10019, "placements[0].targeting.custom.tags[3]"}}));
}

TEST_F(Custom, NotAnObjectIs10019) {
  EXPECT_EQ(only_error(with_targeting(R"({"custom":"tier == 'gold'"})")),
            (Error{10019, "placements[0].targeting.custom"}));
  EXPECT_EQ(only_error(with_targeting(R"({"custom":[{"tier":"gold"}]})")),
            (Error{10019, "placements[0].targeting.custom"}));
}

TEST_F(Custom, MoreThanSixtyFourKeysIs10019) {
  std::string members;
  for (int i = 0; i < 64; ++i) members += (i ? "," : "") + ("\"k" + std::to_string(i) + "\":1");
  ASSERT_TRUE(read(with_targeting(R"({"custom":{)" + members + "}}")).ok());
  EXPECT_EQ(placement().targeting.custom().size(), 64u);
  EXPECT_EQ(only_error(with_targeting(R"({"custom":{)" + members + R"(,"k64":1}})")),
            (Error{10019, "placements[0].targeting.custom"}));
  EXPECT_EQ(reader_.counters().custom_keys_over_limit, 1u);
}

TEST_F(Custom, MoreThan128ArrayItemsIs10019) {
  std::string items;
  for (int i = 0; i < 100; ++i) items += (i ? "," : "") + std::to_string(i);
  ASSERT_TRUE(read(with_targeting(R"({"custom":{"a":[)" + items + "]}}")).ok());
  EXPECT_EQ(only_error(with_targeting(R"({"custom":{"a":[)" + items + R"(],"b":[)" + items + "]}}")),
            (Error{10019, "placements[0].targeting.custom.b"}));
}

TEST_F(Custom, NumberBeyondADoubleIs10019) {
  EXPECT_EQ(only_error(with_targeting(R"({"custom":{"n":-1e400}})")),
            (Error{10019, "placements[0].targeting.custom.n"}));
}

TEST_F(Custom, KeyThatIsNotAPlainNameIsNamedInBrackets) {
  EXPECT_EQ(only_error(with_targeting(R"({"custom":{"user.age \"x\"":{}}})")),
            (Error{10019, R"(placements[0].targeting.custom["user.age \"x\""])"}));
}

TEST_F(Custom, DuplicateKeyKeepsItsFirstPositionAndLastValue) {
  ASSERT_TRUE(read(with_targeting(R"({"custom":{"a":{},"b":2,"a":"x"}})")).ok());
  const Targeting& t = placement().targeting;
  ASSERT_EQ(t.custom().size(), 2u);
  EXPECT_EQ(t.custom()[0].key, "a");
  EXPECT_EQ(t.custom()[0].value.text, "x");
  EXPECT_EQ(t.custom()[1].key, "b");
}

}  // namespace
}  // namespace decision::request
