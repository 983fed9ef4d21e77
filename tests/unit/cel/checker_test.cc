// The checker: names, functions and macros resolved at compile time; a bad expression is
// refused with its position. (Syntax errors: parser_test.cc.)
#include "cel/checker.h"

#include <gtest/gtest.h>

#include <string>

#include "cel/compile.h"
#include "cel/limits.h"
#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

std::string compile_error(std::string_view source, const CompileOptions& options = {}) {
  const absl::StatusOr<Program> program = compile(source, options);
  return program.ok() ? "ok" : std::string(program.status().message());
}

TEST(CelChecker, TheFourRequestVariablesAreDeclared) {
  EXPECT_EQ(compile_error("custom.a == user.b && device.c == app.d"), "ok");
}

TEST(CelChecker, AnyOtherNameIsAnUndeclaredReference) {
  EXPECT_EQ(compile_error("custom.age > 1 && foo"), "1:19: undeclared reference to 'foo'");
  EXPECT_EQ(compile_error("request.user"), "1:1: undeclared reference to 'request'");
}

TEST(CelChecker, ExtraVariablesAreDeclaredOnRequest) {
  CompileOptions options;
  options.extra_variables = {"x"};
  EXPECT_EQ(compile_error("x + 1", options), "ok");
  const absl::StatusOr<Program> program = compile("x", options);
  ASSERT_TRUE(program.ok());
  EXPECT_EQ(program->variable_slot("custom"), 0u);
  EXPECT_EQ(program->variable_slot("app"), 3u);
  EXPECT_EQ(program->variable_slot("x"), 4u);
}

TEST(CelChecker, DottedVariablesResolveLongestNameFirst) {
  CelRunner cel;
  EXPECT_EQ(cel.run("a.b.c", R"({"a.b.c": "whole", "a.b": {"c": "field"}})"), "\"whole\"");
  EXPECT_EQ(cel.run("a.b.c", R"({"a.b": {"c": "field"}})"), "\"field\"");
}

TEST(CelChecker, ComprehensionVariablesShadowDeclaredOnes) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 2].map(custom, custom * 10)", R"({"custom": {}})"), "[10,20]");
  EXPECT_EQ(cel.run("[[1], [2]].all(x, x.all(x, x > 0))"), "true");
}

TEST(CelChecker, ComprehensionVariablesEndWithTheirMacro) {
  EXPECT_EQ(compile_error("[1].all(x, x > 0) && x > 0"), "1:22: undeclared reference to 'x'");
}

TEST(CelChecker, UnknownFunctionsAreRefused) {
  EXPECT_EQ(compile_error("lower(custom.name)"), "1:1: undeclared reference to 'lower'");
  EXPECT_EQ(compile_error("custom.name.lower()"), "1:13: undeclared reference to 'lower'");
}

TEST(CelChecker, KnownFunctionsWithTheWrongArgumentsAreRefused) {
  EXPECT_EQ(compile_error("size(1, 2)"),
            "1:1: found no matching overload for 'size' applied to 2 argument(s)");
  EXPECT_EQ(compile_error("'a'.startsWith()"),
            "1:5: found no matching overload for 'startsWith' applied to 1 argument(s)");
  EXPECT_EQ(compile_error("startsWith('a', 'b')"),
            "1:1: found no matching overload for 'startsWith' applied to 2 argument(s)");
}

TEST(CelChecker, HasNeedsAFieldSelection) {
  EXPECT_EQ(compile_error("has(custom)"),
            "1:1: invalid argument to has() macro: expected a field selection");
  EXPECT_EQ(compile_error("has(custom['a'])"),
            "1:1: invalid argument to has() macro: expected a field selection");
  EXPECT_EQ(compile_error("has(custom.a)"), "ok");
}

TEST(CelChecker, MacroVariablesMustBeSimpleNames) {
  EXPECT_EQ(compile_error("[1].all(x.y, true)"),
            "1:11: all() needs a simple name as its first argument");
}

TEST(CelChecker, LiteralRegexIsCompiledAndCheckedOnce) {
  EXPECT_EQ(compile_error("custom.name.matches('^a.*z$')"), "ok");
  EXPECT_EQ(compile_error("custom.name.matches('a(b')"),
            "1:21: invalid regular expression: missing ): a(b");
}

TEST(CelChecker, TypeDenotationsAreConstants) {
  CelRunner cel;
  EXPECT_EQ(cel.run("type(1) == int && type('a') == string && type(type) == type"), "true");
  EXPECT_EQ(cel.run("[int, uint, double, bool, string, bytes, list, map, null_type]"),
            R"(["int","uint","double","bool","string","bytes","list","map","null_type"])");
}

TEST(CelChecker, UncheckedModeDefersUnknownNamesToEvaluation) {
  CelRunner cel;
  CompileOptions unchecked;
  unchecked.defer_unknown_references = true;
  EXPECT_EQ(cel.run("x || true", "{}", unchecked), "true");
  EXPECT_EQ(cel.run("x", "{}", unchecked), "error: unbound variable");
  EXPECT_EQ(cel.run("f(1) || true", "{}", unchecked), "true");
  EXPECT_EQ(cel.run("f(1)", "{}", unchecked), "error: unbound function");
  EXPECT_EQ(cel.run("size(1, 2)", "{}", unchecked), "error: no matching overload");
}

TEST(CelChecker, MacrosCanBeTurnedOff) {
  CompileOptions options;
  options.macros = false;
  EXPECT_EQ(compile_error("has(custom.a)", options), "1:1: undeclared reference to 'has'");
  EXPECT_EQ(compile_error("[1].all(x, true)", options), "1:5: undeclared reference to 'all'");
}

TEST(CelChecker, SourceMustBeUtf8) {
  EXPECT_EQ(compile_error("'ab\xff'"), "1:4: source is not valid UTF-8");
}

TEST(CelChecker, SourceSizeIsBounded) {
  const std::string long_source(kMaxSourceBytes + 1, ' ');
  EXPECT_EQ(compile_error(long_source), "1:1: expression longer than 16384 bytes");
}

TEST(CelChecker, ConstantListsAndMapsAreBuiltOnce) {
  const absl::StatusOr<Program> program = compile("custom.country in ['FR', 'DE', 'ES']");
  ASSERT_TRUE(program.ok());
  // The list is one constant node, not a list construction of three.
  size_t list_constructions = 0;
  for (uint32_t i = 0; i < program->node_count(); ++i) {
    list_constructions += program->node(i).op == Op::kCreateList;
  }
  EXPECT_EQ(list_constructions, 0u);
}

TEST(CelChecker, AMapLiteralThatCannotBeBuiltFailsWhenEvaluated) {
  // CEL makes a repeated key an evaluation error, not a compile error.
  CelRunner cel;
  EXPECT_EQ(cel.run("{'a': 1, 'a': 2}"), "error: repeated map key");
  EXPECT_EQ(cel.run("false && {'a': 1, 'a': 2}['a'] == 1"), "false");
}

}  // namespace
}  // namespace cel
