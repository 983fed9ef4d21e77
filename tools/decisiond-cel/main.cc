// decisiond-cel [--bindings JSON] [--] EXPR
//
// Compiles EXPR as a targeting.custom rule is compiled (variables custom, user, device,
// app; anything else undeclared is a compile error) and evaluates it with the variables
// bound from JSON, an object whose members are the variables:
//   decisiond-cel 'custom.age >= 18' --bindings '{"custom":{"age":21}}'
// A variable left out of the bindings is unbound: reading it is an evaluation error, as a
// request without that object makes the rule fail.
//
// Prints the result as JSON on stdout (value_json.h says how CEL values map to JSON:
// bytes as base64, NaN and infinities as strings) and exits 0. An evaluation error: the
// message on stderr, exit 1. A compile error or bad usage: the message on stderr, exit 2.
#include <simdjson.h>

#include <array>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "cel/arena.h"
#include "cel/compile.h"
#include "cel/evaluator.h"
#include "cel/json_host.h"
#include "cel/limits.h"
#include "cel/value_json.h"
#include "runtime/absl_view.h"

namespace {


constexpr int kExitEvaluationError = 1;
constexpr int kExitCompileErrorOrUsage = 2;
constexpr std::string_view kUsage =
    "usage: decisiond-cel [--bindings JSON] [--] EXPR\n"
    "  JSON: an object of the variables custom, user, device, app, e.g.\n"
    "        '{\"custom\":{\"age\":21},\"device\":{\"os\":\"iOS\"}}'\n"
    "  exit status: 0 result printed as JSON, 1 evaluation error, 2 compile error or usage\n";

struct CommandLine {
  std::string expression;
  std::optional<std::string> bindings;
};

int fail(int status, std::string_view message) {
  std::cerr << "decisiond-cel: " << message << "\n";
  return status;
}

std::optional<CommandLine> read_command_line(int argc, char** argv) {
  CommandLine line;
  bool have_expression = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--bindings" && i + 1 < argc && !line.bindings) {
      line.bindings = argv[++i];
    } else if (arg.starts_with("--bindings=") && !line.bindings) {
      line.bindings = std::string(arg.substr(arg.find('=') + 1));
    } else if (!have_expression && (!arg.starts_with("--") || arg == "--")) {
      if (arg == "--") {
        if (++i >= argc) return std::nullopt;
      }
      line.expression = argv[i];
      have_expression = true;
    } else {
      return std::nullopt;
    }
  }
  if (!have_expression) return std::nullopt;
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::cout << kUsage;
    return 0;
  }
  const std::optional<CommandLine> line = read_command_line(argc, argv);
  if (!line) {
    std::cerr << kUsage;
    return kExitCompileErrorOrUsage;
  }

  const absl::StatusOr<cel::Program> program = cel::compile(line->expression);
  if (!program.ok()) {
    return fail(kExitCompileErrorOrUsage,
                absl::StrCat("compile error: ", program.status().message()));
  }

  // Unbound until the bindings say otherwise.
  std::array<cel::Value, cel::kRequestVariables.size()> variables;
  variables.fill(cel::Value::error(cel::ErrorCode::kUnboundVariable, 0));
  simdjson::dom::parser parser;
  cel::Arena bindings_arena(cel::kDefaultArenaBytesMax);
  if (line->bindings) {
    simdjson::dom::element document;
    if (const auto error = parser.parse(*line->bindings).get(document);
        error != simdjson::SUCCESS) {
      return fail(kExitCompileErrorOrUsage,
                  absl::StrCat("--bindings is not valid JSON: ",
                               runtime::av(simdjson::error_message(error))));
    }
    simdjson::dom::object object;
    if (document.get_object().get(object) != simdjson::SUCCESS) {
      return fail(kExitCompileErrorOrUsage, "--bindings must be a JSON object of variables");
    }
    for (const simdjson::dom::key_value_pair member : object) {
      const std::optional<size_t> slot = program->variable_slot(member.key);
      if (!slot) {
        return fail(kExitCompileErrorOrUsage,
                    absl::StrCat("--bindings: unknown variable '", runtime::av(member.key),
                                 "' (the variables are custom, user, device, app)"));
      }
      variables[*slot] = cel::json_value(member.value, bindings_arena);
    }
  }

  cel::Evaluator evaluator;
  const cel::Value result = evaluator.evaluate(*program, variables);
  if (result.is_error()) {
    return fail(kExitEvaluationError,
                absl::StrCat("evaluation error: ", program->error_text(result)));
  }
  std::string json;
  cel::Arena print_arena(cel::kDefaultArenaBytesMax);
  cel::append_json(result, print_arena, json);
  std::cout << json << "\n";
  return 0;
}
