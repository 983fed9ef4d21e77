#include "tests/conformance/cel/conformance_case.h"

#include <algorithm>
#include <array>

namespace conformance {
namespace {

// Any field with one of these names, at any depth of the test, needs protobuf messages,
// protobuf enums or generic types.
constexpr std::array<std::string_view, 5> kProtobufFields = {
    "object_value", "enum_value", "message_type", "abstract_type", "type_param"};

// Expression text that calls for an unsupported feature.
struct ExprMarker {
  std::string_view text;
  std::string_view reason;
};
constexpr std::array<ExprMarker, 8> kExprMarkers = {{
    {"timestamp(", "timestamps and durations"},
    {"duration(", "timestamps and durations"},
    {"google.protobuf.", "protobuf messages"},
    {"TestAllTypes", "protobuf messages"},
    {".?", "optional values"},
    {"[?", "optional values"},
    {"{?", "optional values"},
    {"optional.", "optional values"},
}};

bool mentions_protobuf(const TextMessage& message) {
  for (const TextField& field : message.fields) {
    if (field.name.starts_with("[")) return true;  // an expanded Any
    if (std::find(kProtobufFields.begin(), kProtobufFields.end(), field.name) !=
        kProtobufFields.end()) {
      return true;
    }
    if (field.is_message && mentions_protobuf(field.message)) return true;
  }
  return false;
}

std::optional<std::string> skip_reason(const TextMessage& test, std::string_view expr) {
  if (mentions_protobuf(test)) return "protobuf messages";
  for (const ExprMarker& marker : kExprMarkers) {
    if (expr.find(marker.text) != std::string_view::npos) return std::string(marker.reason);
  }
  if (!test.scalar("container").empty()) return "containers (protobuf namespaces)";
  for (const TextField* declaration : test.find_all("type_env")) {
    if (declaration->message.find("function") != nullptr) return "declared functions";
  }
  if (test.find("unknown") != nullptr || test.find("any_unknowns") != nullptr) return "unknowns";
  if (test.find("typed_result") != nullptr) return "static type deduction";
  if (test.flag("check_only")) return "static type checking";
  return std::nullopt;
}

}  // namespace

ConformanceCase read_case(std::string_view section, const TextMessage& test) {
  ConformanceCase c;
  c.section = std::string(section);
  c.name = std::string(test.scalar("name"));
  c.expr = std::string(test.scalar("expr"));
  c.unchecked = test.flag("disable_check");
  c.macros = !test.flag("disable_macros");
  for (const TextField* declaration : test.find_all("type_env")) {
    c.declared.emplace_back(declaration->message.scalar("name"));
  }
  for (const TextField* binding : test.find_all("bindings")) {
    const TextField* outer = binding->message.find("value");  // ExprValue
    const TextField* value = outer == nullptr ? nullptr : outer->message.find("value");
    const std::string name(binding->message.scalar("key"));
    if (std::find(c.declared.begin(), c.declared.end(), name) == c.declared.end()) {
      c.declared.push_back(name);
    }
    c.bindings.push_back(Binding{name, value == nullptr ? nullptr : &value->message});
  }
  if (const TextField* value = test.find("value")) c.expected_value = &value->message;
  c.expects_error = test.find("eval_error") != nullptr || test.find("any_eval_errors") != nullptr;
  c.skip_reason = skip_reason(test, c.expr);
  return c;
}

}  // namespace conformance
