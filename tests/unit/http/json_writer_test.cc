// Structure and numbers: the writer places commas and writes numbers JSON can carry.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "http/json_writer.h"
#include "tests/unit/http/json_check.h"

namespace http {
namespace {

using testing::is_valid_json;

TEST(JsonWriter, EmptyContainersHaveNoCommas) {
  std::string out;
  JsonWriter(out).begin_array().begin_object().end_object().begin_array().end_array().end_array();
  EXPECT_EQ(out, "[{},[]]");
}

TEST(JsonWriter, ArrayItemsAreCommaSeparated) {
  std::string out;
  JsonWriter(out).begin_array().number(1).string("two").boolean(true).null().end_array();
  EXPECT_EQ(out, R"([1,"two",true,null])");
}

TEST(JsonWriter, ObjectMembersAreCommaSeparated) {
  std::string out;
  JsonWriter(out).begin_object().key("a").number(1).key("b").boolean(false).end_object();
  EXPECT_EQ(out, R"({"a":1,"b":false})");
}

TEST(JsonWriter, NestedContainersKeepCommasPerLevel) {
  std::string out;
  JsonWriter json(out);
  json.begin_object().key("a").begin_array().number(1);
  json.begin_array().number(2).number(3).end_array();
  json.begin_object().end_object().end_array();
  json.key("b").begin_object().key("c").begin_array().end_array().key("d").null().end_object();
  json.key("e").begin_array().begin_object().key("f").number(4).end_object();
  json.begin_object().key("g").number(5).end_object().end_array().end_object();
  EXPECT_EQ(out, R"({"a":[1,[2,3],{}],"b":{"c":[],"d":null},"e":[{"f":4},{"g":5}]})");
  EXPECT_TRUE(is_valid_json(out));
}

TEST(JsonWriter, RawIsInsertedAsOneValue) {
  std::string out;
  JsonWriter(out).begin_array().number(1).raw(R"({"x":[2]})").number(3).end_array();
  EXPECT_EQ(out, R"([1,{"x":[2]},3])");
}

TEST(JsonWriter, WriterAppendsToWhatIsAlreadyThere) {
  std::string out = "data: ";
  JsonWriter(out).begin_array().number(1).end_array();
  EXPECT_EQ(out, "data: [1]");
}

TEST(JsonWriter, Int64ExtremesAreExact) {
  std::string out;
  JsonWriter(out).begin_array()
      .number(std::numeric_limits<int64_t>::min())
      .number(std::numeric_limits<int64_t>::max())
      .number(-1)
      .number(0)
      .end_array();
  EXPECT_EQ(out, "[-9223372036854775808,9223372036854775807,-1,0]");
  simdjson::dom::parser parser;
  simdjson::dom::array items = parser.parse(simdjson::padded_string(out)).get_array();
  EXPECT_EQ(int64_t(items.at(0)), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(int64_t(items.at(1)), std::numeric_limits<int64_t>::max());
}

TEST(JsonWriter, Uint64MaxIsExact) {
  std::string out;
  JsonWriter(out).number(std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(out, "18446744073709551615");
  simdjson::dom::parser parser;
  EXPECT_EQ(uint64_t(parser.parse(simdjson::padded_string(out))),
            std::numeric_limits<uint64_t>::max());
}

TEST(JsonWriter, DoublesAreShortestTextThatReadsBackExactly) {
  const std::pair<double, std::string> cases[] = {
      {0.1, "0.1"},
      {1.5, "1.5"},
      {100.0, "100"},
      {-2.25, "-2.25"},
      {1.0 / 3.0, "0.3333333333333333"},
      {0.1 + 0.2, "0.30000000000000004"},
      {1e21, "1e+21"},
      {1e-7, "1e-07"},
      {DBL_MAX, "1.7976931348623157e+308"},
      {DBL_TRUE_MIN, "5e-324"},
  };
  for (const auto& [value, text] : cases) {
    SCOPED_TRACE(text);
    std::string out;
    JsonWriter(out).number(value);
    EXPECT_EQ(out, text);
    simdjson::dom::parser parser;
    double read = 0;
    ASSERT_FALSE(parser.parse(simdjson::padded_string(out)).get_double().get(read));
    EXPECT_EQ(read, value);
  }
}

TEST(JsonWriter, NanAndInfinitiesAreNull) {
  std::string out;
  JsonWriter(out).begin_array()
      .number(std::nan(""))
      .number(std::numeric_limits<double>::infinity())
      .number(-std::numeric_limits<double>::infinity())
      .number(2.5)
      .end_array();
  EXPECT_EQ(out, "[null,null,null,2.5]");
}

}  // namespace
}  // namespace http
