#include "tests/unit/cel/cel_runner.h"

#include <vector>

#include "cel/json_host.h"
#include "cel/limits.h"
#include "cel/value_json.h"

namespace cel::testing {

CelRunner::CelRunner() : bindings_arena_(kDefaultArenaBytesMax) {}

std::string CelRunner::run(std::string_view expression, std::string_view bindings,
                           CompileOptions options) {
  last_error_position_.clear();
  bindings_arena_.reset();
  simdjson::dom::object object;
  if (parser_.parse(bindings.data(), bindings.size()).get_object().get(object) !=
      simdjson::SUCCESS) {
    return "bad bindings";
  }
  for (const simdjson::dom::key_value_pair member : object) {
    bool is_request_variable = false;
    for (const std::string_view name : kRequestVariables) is_request_variable |= name == member.key;
    if (!is_request_variable) options.extra_variables.emplace_back(member.key);
  }
  const absl::StatusOr<Program> program = compile(expression, options);
  if (!program.ok()) return "compile error: " + std::string(program.status().message());

  std::vector<Value> variables(program->variable_names().size(),
                               Value::error(ErrorCode::kUnboundVariable, 0));
  for (const simdjson::dom::key_value_pair member : object) {
    variables[*program->variable_slot(member.key)] = json_value(member.value, bindings_arena_);
  }
  const Value result = evaluator_.evaluate(*program, variables);
  if (result.is_error()) {
    last_error_position_ = program->error_text(result);
    return "error: " + std::string(error_message(result.error_code()));
  }
  std::string json;
  Arena print_arena(kDefaultArenaBytesMax);
  append_json(result, print_arena, json);
  return json;
}

std::string CelRunner::error_at(std::string_view expression, std::string_view bindings) {
  run(expression, bindings);
  return last_error_position_;
}

}  // namespace cel::testing
