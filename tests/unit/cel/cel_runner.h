#pragma once
// Test support: compiles and evaluates an expression with JSON bindings and says what
// came out as text, so that tests read like the rules they check:
//   EXPECT_EQ(cel.run("1 + 1"), "2");
//   EXPECT_EQ(cel.run("1 / 0"), "error: divide by zero");
//   EXPECT_EQ(cel.run("foo"), "compile error: 1:1: undeclared reference to 'foo'");
#include <simdjson.h>

#include <string>
#include <string_view>

#include "cel/arena.h"
#include "cel/compile.h"
#include "cel/evaluator.h"

namespace cel::testing {

class CelRunner {
 public:
  CelRunner();

  // bindings: a JSON object of variables. Members other than the request variables are
  // declared as extra variables. The result is JSON (value_json.h), "error: message" or
  // "compile error: line:column: message".
  std::string run(std::string_view expression, std::string_view bindings = "{}",
                  CompileOptions options = {});
  // "line:column: message" of the evaluation error, or "" when there is none.
  std::string error_at(std::string_view expression, std::string_view bindings = "{}");

 private:
  simdjson::dom::parser parser_;
  Arena bindings_arena_;
  Evaluator evaluator_;
  std::string last_error_position_;
};

}  // namespace cel::testing
