#pragma once
// One test of a cel-spec simple test file (cel.expr.conformance.test.SimpleTest), as this
// runner understands it, and whether it can run at all.
//
// A test is skipped, and counted apart from failures, only when it needs a feature outside
// the supported subset (docs/cel.md): protobuf messages and enums, timestamps and
// durations, containers (protobuf namespaces), optional values, declared functions,
// unknowns, static type checking / deduction. Everything else runs.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/conformance/cel/textproto.h"

namespace conformance {

struct Binding {
  std::string name;
  const TextMessage* value = nullptr;  // a cel.expr.Value
};

struct ConformanceCase {
  std::string section;
  std::string name;
  std::string expr;
  bool unchecked = false;             // disable_check
  bool macros = true;                 // !disable_macros
  std::vector<std::string> declared;  // type_env and binding names
  std::vector<Binding> bindings;
  // What the result must be: the value (cel.expr.Value), or any error. Neither: true.
  const TextMessage* expected_value = nullptr;
  bool expects_error = false;
  std::optional<std::string> skip_reason;
};

ConformanceCase read_case(std::string_view section, const TextMessage& test);

}  // namespace conformance
