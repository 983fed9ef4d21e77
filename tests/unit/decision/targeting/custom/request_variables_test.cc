// The request's objects as CEL variables: custom through its parsed members, user,
// device and app through their JSON text.
#include "decision/targeting/custom/request_variables.h"

#include "tests/support/allocation_count.h"
#include "tests/unit/decision/targeting/custom/variables_fixture.h"

namespace decision::targeting {
namespace {

TEST_F(VariablesTest, CustomNumbersAreIntWhenWrittenAsIntegers) {
  read(R"({"placements":[{"key":"p","targeting":{"custom":{)"
       R"("i":27,"n":-5,"d":3.0,"e":3e0,"u":18446744073709551615,"huge":99999999999999999999}}}]})");
  EXPECT_TRUE(holds("type(custom.i) == int && custom.i == 27"));
  EXPECT_TRUE(holds("type(custom.n) == int && custom.n == -5"));
  EXPECT_TRUE(holds("type(custom.d) == double && custom.d == 3.0"));
  EXPECT_TRUE(holds("type(custom.e) == double"));
  EXPECT_TRUE(holds("type(custom.u) == uint && custom.u == 18446744073709551615u"));
  EXPECT_TRUE(holds("type(custom.huge) == double && custom.huge > 1e19"));
}

TEST_F(VariablesTest, CustomStringsBoolsAndArrays) {
  read(R"({"placements":[{"key":"p","targeting":{"custom":{)"
       R"("s":"a\"b\u00e9","yes":true,"no":false,"tags":["news","sports"],"mixed":[1,"x",true,2.5],"none":[]}}}]})");
  EXPECT_TRUE(holds(R"(custom.s == "a\"bé" && size(custom.s) == 4)"));
  EXPECT_TRUE(holds("custom.yes && !custom.no"));
  EXPECT_TRUE(holds(R"(custom.tags == ["news", "sports"] && custom.tags[1] == "sports")"));
  EXPECT_TRUE(holds(R"("news" in custom.tags && !("video" in custom.tags))"));
  EXPECT_TRUE(holds(R"(custom.mixed[0] == 1 && custom.mixed[1] == "x" && custom.mixed[2] && custom.mixed[3] == 2.5)"));
  EXPECT_TRUE(holds("size(custom.none) == 0 && !custom.none.exists(x, true)"));
}

TEST_F(VariablesTest, CustomKeysInDocumentOrderAndTheLastValueWins) {
  read(R"({"placements":[{"key":"p","targeting":{"custom":{"b":1,"a":2,"b":3,"k\u00e9y":4}}}]})");
  EXPECT_TRUE(holds("size(custom) == 3 && custom.b == 3 && custom.a == 2"));
  EXPECT_TRUE(holds(R"(custom["kéy"] == 4 && has(custom.a) && !has(custom.c))"));
  EXPECT_TRUE(holds(R"(custom.map(k, k) == ["b", "a", "kéy"])"));
  EXPECT_TRUE(fails("custom.c == 1"));  // no such key: an error, never a quiet false
}

TEST_F(VariablesTest, AbsentObjectsAreEmptyMaps) {
  read(R"({"placements":[{"key":"p"}]})");
  EXPECT_TRUE(holds("size(custom) == 0 && size(user) == 0 && size(device) == 0 && size(app) == 0"));
  EXPECT_TRUE(holds("!has(custom.a) && !has(user.id) && !has(device.os) && !has(app.name)"));
  read(R"({"placements":[{"key":"p"}],"user":null,"device":null})");
  EXPECT_TRUE(holds("size(user) == 0 && size(device) == 0"));
}

TEST_F(VariablesTest, UserDeviceAndAppAreTheRequestObjectsAsWritten) {
  read(R"({"placements":[{"key":"p"}],)"
       R"("user":{"id":"u-1","consent":{"gdpr":true},"segments":["s1","s2"],"timezone":"Europe/Paris"},)"
       R"("device":{"os":"ios","screen":{"w":390,"h":844},"model":"iPhone\u00a015"},)"
       R"("app":{"bundle":"com.example.news","version":"2.1"}})");
  EXPECT_TRUE(holds(R"(user.id == "u-1" && user.consent.gdpr && "s2" in user.segments)"));
  EXPECT_TRUE(holds(R"(user.timezone.startsWith("Europe/"))"));
  EXPECT_TRUE(holds(R"(device.os == "ios" && device.screen.w < device.screen.h)"));
  EXPECT_TRUE(holds("device.model == \"iPhone\u00a015\""));
  EXPECT_TRUE(holds(R"(app.bundle.endsWith(".news") && app.version == "2.1")"));
}

TEST_F(VariablesTest, EachPlacementHasItsOwnCustom) {
  read(R"({"placements":[{"key":"p","targeting":{"custom":{"section":"sports"}}},{"key":"q"},)"
       R"({"key":"r","targeting":{"custom":{"section":"news"}}}],"user":{"id":"u"}})");
  EXPECT_TRUE(holds(R"(custom.section == "sports" && user.id == "u")"));
  variables_.begin_placement(request_.placements()[1].targeting);
  EXPECT_TRUE(holds(R"(size(custom) == 0 && user.id == "u")"));
  variables_.begin_placement(request_.placements()[2].targeting);
  EXPECT_TRUE(holds(R"(custom.section == "news")"));
}

TEST_F(VariablesTest, ObjectsAreParsedOnlyForRulesThatReadThem) {
  read(R"({"placements":[{"key":"p"}],"user":{"id":"u"},"device":{"os":"ios","h":1}})");
  std::span<const cel::Value> values = variables_.values(0b0001);
  EXPECT_EQ(values[1].as_map().size(), 0u);  // not parsed yet
  EXPECT_EQ(values[2].as_map().size(), 0u);
  values = variables_.values(0b0100);
  EXPECT_EQ(values[1].as_map().size(), 0u);
  EXPECT_EQ(values[2].as_map().size(), 2u);
  values = variables_.values(0b0010);
  EXPECT_EQ(values[1].as_map().size(), 1u);
}

TEST_F(VariablesTest, ANewRequestForgetsTheLastOnesObjects) {
  read(R"({"placements":[{"key":"p"}],"device":{"os":"ios"}})");
  EXPECT_TRUE(holds(R"(device.os == "ios")"));
  read(R"({"placements":[{"key":"p"}]})");
  EXPECT_TRUE(holds("!has(device.os)"));
  read(R"({"placements":[{"key":"p"}],"device":{"os":"android"}})");
  EXPECT_TRUE(holds(R"(device.os == "android")"));
}

TEST_F(VariablesTest, AWarmCoreAllocatesNothing) {
  read(R"({"placements":[{"key":"p","targeting":{"custom":{"tags":["a","b"],"age":30}}}],)"
       R"("user":{"id":"u"},"device":{"os":"ios","screen":{"w":390}},"app":{"bundle":"b"}})");
  const absl::StatusOr<cel::Program> program = cel::compile(
      R"(custom.tags.exists(t, t == "b") && custom.age > 18 && user.id == "u" && )"
      R"(device.screen.w > 300 && app.bundle == "b")");
  ASSERT_TRUE(program.ok());
  ASSERT_TRUE(cel::holds(evaluator_.evaluate(*program, variables_.values(kAll))));  // warm
  bool held = true;
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 50; ++i) {
      variables_.begin_request(request_);
      variables_.begin_placement(request_.placements()[0].targeting);
      held = held && cel::holds(evaluator_.evaluate(*program, variables_.values(kAll)));
    }
  });
  EXPECT_TRUE(held);
  EXPECT_EQ(allocations, 0u);
}

}  // namespace
}  // namespace decision::targeting
