// The work bound (work_meter.h): short rules whose steps grow with their data end in
// "evaluation limit exceeded" instead of running for seconds or hours, while typical rules
// spend a few dozen units. The long rules here were written against the fuzz driver's
// report (tests/fuzz/cel_fuzz.cc): strings doubled by nested map() into 256 KiB, then
// read on every step of nested loops.
#include <gtest/gtest.h>

#include <simdjson.h>

#include <array>
#include <span>
#include <string>

#include "cel/compile.h"
#include "cel/evaluator.h"
#include "cel/json_host.h"

namespace cel {
namespace {

// ['a'].map(a0, [a0 + a0].map(a1, ... [a17 + 'b'].map(p, inner) ...)): a18 is 'a' doubled
// 18 times (256 KiB), p the same 128 KiB string with a 'b' after it.
std::string doubled_strings_around(const std::string& inner) {
  std::string out = "['a'].map(a0, ";
  for (int i = 0; i < 18; ++i) {
    out += "[a" + std::to_string(i) + " + a" + std::to_string(i) + "].map(a" + std::to_string(i + 1) + ", ";
  }
  out += "[a17 + 'b'].map(p, " + inner + ")";
  return out + std::string(19, ')');
}

// Nested all() over ten items, `levels` deep, around predicate.
std::string loops_around(int levels, const std::string& predicate) {
  std::string out;
  for (int i = 0; i < levels; ++i) out += "[0,1,2,3,4,5,6,7,8,9].all(i" + std::to_string(i) + ", ";
  return out + predicate + std::string(levels, ')');
}

Value evaluate(Evaluator& evaluator, const std::string& source) {
  const absl::StatusOr<Program> program = compile(source);
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return Value::null();
  const Value result = evaluator.evaluate(*program, {});
  if (result.is_error()) {
    EXPECT_NE(program->error_text(result), "");
  }
  return result;
}

void expect_limit(const std::string& source) {
  Evaluator evaluator;
  const Value result = evaluate(evaluator, source);
  ASSERT_TRUE(result.is_error()) << source.substr(0, 80);
  EXPECT_EQ(result.error_code(), ErrorCode::kLimitExceeded);
}

TEST(CelWorkLimit, ASearchRepeatedOverAGrownStringStops) {
  const std::string source = doubled_strings_around(loops_around(1, "!a18.contains(p)"));
  expect_limit(source);
  // Not the arena: without the work bound the same rule completes (and in linear time,
  // since the search is memmem's two-way, not a compare at every position).
  Evaluator unbounded(EvaluatorLimits{.work_max = UINT64_MAX});
  const Value result = evaluate(unbounded, source);
  ASSERT_EQ(result.kind(), Kind::kList);
}

TEST(CelWorkLimit, ASizeRepeatedOverAGrownStringStops) {
  expect_limit(doubled_strings_around(loops_around(5, "size(a18) > 0")));
}

TEST(CelWorkLimit, AMatchRepeatedOverAGrownStringStops) {
  expect_limit(doubled_strings_around(loops_around(5, "!a18.matches('b')")));
}

TEST(CelWorkLimit, DeepEqualityChargesEveryElement) {
  // Two lists of ten references to the same 256 KiB string: equal, and 2.5 MiB to compare.
  expect_limit(doubled_strings_around(loops_around(2, "[a18, a18, a18, a18, a18, a18, a18, a18, a18, a18] == "
                                                      "[a18, a18, a18, a18, a18, a18, a18, a18, a18, a18]")));
  expect_limit(doubled_strings_around(loops_around(2, "a18 in [p, p, p, p, p, p, p, p, p, a18]")));
}

TEST(CelWorkLimit, TheBoundIsTheOperandsBytes) {
  simdjson::dom::parser parser;
  const std::string long_text = std::string(1000, 'x');
  const std::string json = R"({"s":")" + long_text + R"("})";
  simdjson::dom::element document;
  ASSERT_EQ(parser.parse(json).get(document), simdjson::SUCCESS);
  Arena bindings(kDefaultArenaBytesMax);
  const Value variables[] = {json_value(document, bindings)};
  const absl::StatusOr<Program> program = compile("custom.s.contains('y')");
  ASSERT_TRUE(program.ok());
  Evaluator small(EvaluatorLimits{.work_max = 500});
  const Value stopped = small.evaluate(*program, variables);
  ASSERT_TRUE(stopped.is_error());
  EXPECT_EQ(program->error_text(stopped), "1:10: evaluation limit exceeded");
  Evaluator enough(EvaluatorLimits{.work_max = 2000});
  const Value answered = enough.evaluate(*program, variables);
  ASSERT_TRUE(answered.is_bool());
  EXPECT_FALSE(answered.as_bool());
  EXPECT_GE(enough.work_used(), 1000u);
}

// A JSON object of n keys "k0".."k{n-1}" (values 1) as `custom`.
class WideBinding {
 public:
  explicit WideBinding(int keys) {
    json_ = "{\"custom\":{";
    for (int i = 0; i < keys; ++i) json_ += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
    json_ += "}}";
    simdjson::dom::element document;
    EXPECT_EQ(parser_.parse(json_).get(document), simdjson::SUCCESS);
    variables_[0] = json_value(document["custom"].value_unsafe(), arena_);
  }
  std::span<const Value> variables() const { return variables_; }

 private:
  std::string json_;
  simdjson::dom::parser parser_;
  Arena arena_{kDefaultArenaBytesMax};
  std::array<Value, 1> variables_{};
};

TEST(CelWorkLimit, SelectingAFieldChargesTheKeysItScans) {
  const WideBinding custom(5000);
  const absl::StatusOr<Program> program = compile("custom.k4999 == 1");
  ASSERT_TRUE(program.ok());
  Evaluator small(EvaluatorLimits{.work_max = 1000});
  const Value stopped = small.evaluate(*program, custom.variables());
  ASSERT_TRUE(stopped.is_error());
  EXPECT_EQ(stopped.error_code(), ErrorCode::kLimitExceeded);
  Evaluator enough(EvaluatorLimits{.work_max = 10'000});
  EXPECT_TRUE(holds(enough.evaluate(*program, custom.variables())));
}

TEST(CelWorkLimit, MapEqualityChargesEveryLookUp) {
  // 2,000 keys, each looked up in both maps by a scan: millions of key comparisons.
  const WideBinding custom(2000);
  const absl::StatusOr<Program> program = compile("custom == custom");
  ASSERT_TRUE(program.ok());
  Evaluator evaluator;
  const Value result = evaluator.evaluate(*program, custom.variables());
  ASSERT_TRUE(result.is_error());
  EXPECT_EQ(result.error_code(), ErrorCode::kLimitExceeded);
}

TEST(CelWorkLimit, ASpentBoundIsNeverAbsorbedIntoAnAnswer) {
  // `||` absorbs an error when the other side is true; a spent meter must still show.
  const WideBinding custom(5000);
  const absl::StatusOr<Program> program = compile("custom.k4999 == 1 || true");
  ASSERT_TRUE(program.ok());
  Evaluator small(EvaluatorLimits{.work_max = 1000});
  const Value result = small.evaluate(*program, custom.variables());
  ASSERT_TRUE(result.is_error());
  EXPECT_EQ(result.error_code(), ErrorCode::kLimitExceeded);
}

TEST(CelWorkLimit, TypicalRulesSpendLittle) {
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  ASSERT_EQ(parser.parse(std::string(R"({"section":"sports","age":27,"tags":["news","premium","travel"],)"
                                     R"("member":true,"tier":"gold","cart_value":72.5})"))
                .get(document),
            simdjson::SUCCESS);
  Arena bindings(kDefaultArenaBytesMax);
  const Value variables[] = {json_value(document, bindings)};
  Evaluator evaluator;
  for (const char* source :
       {R"(custom.section == "sports")", R"(custom.section in ["news", "politics"])",
        "custom.age >= 18 && custom.age < 35", R"("premium" in custom.tags)",
        "has(custom.member) && custom.member", "custom.tier == 'gold' && custom.age >= 18",
        "has(custom.cart_value) && custom.cart_value > 50.0",
        R"(custom.section == "travel" || "travel" in custom.tags)",
        R"(custom.tags.exists(t, t.startsWith("tr")))"}) {
    const absl::StatusOr<Program> program = compile(source);
    ASSERT_TRUE(program.ok()) << source;
    EXPECT_FALSE(evaluator.evaluate(*program, variables).is_error()) << source;
    EXPECT_LT(evaluator.work_used(), 200u) << source;
  }
}

}  // namespace
}  // namespace cel
