// Fuzz driver for the CEL compiler and evaluator (cel/, docs/cel.md).
//
// Input: EXPR, or EXPR NUL BINDINGS. EXPR is the source, every byte before the first NUL
// (so a raw NUL never reaches the lexer; the escapes '\0' and '\x00' still do). BINDINGS
// is a JSON object whose members custom, user, device and app bind the request variables
// (compile_options.h); other members are ignored. Without a NUL, or when BINDINGS is not a
// JSON object, every variable is unbound, as for a request without those objects.
//
// EXPR is compiled as a catalog rule is (production options), and again in cel-spec's
// unchecked mode (defer_unknown_references). Invariants, any break aborts:
//   - compile never throws; a refusal is INVALID_ARGUMENT whose message starts with a
//     "line:column:" inside the source;
//   - what compiles in production compiles deferred too (deferral only accepts more);
//   - one reused evaluator, evaluating the same program twice with the same bindings,
//     gives the same result: same kind, same scalar (bit for bit), same text, same error
//     code and offset, same JSON for lists and maps;
//   - the production and the deferred program of one source give that same result;
//   - an error result's offset is inside the source and Program::error_text() starts with
//     a "line:column:" inside the source.
// limits.h bounds source size (16 KiB) and nesting (128): the corpus holds inputs past
// both (bound_source_size, deep_*), refused at compile time rather than recursed into.
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "cel/arena.h"
#include "cel/compile.h"
#include "cel/compile_options.h"
#include "cel/evaluator.h"
#include "cel/json_host.h"
#include "cel/limits.h"
#include "cel/value.h"
#include "cel/value_json.h"
#include "runtime/absl_view.h"

namespace {


using Variables = std::array<cel::Value, cel::kRequestVariables.size()>;

[[noreturn]] void broken(std::string_view invariant, std::string_view detail = {}) {
  std::fprintf(stderr, "cel_fuzz: invariant broken: %.*s\n  %.*s\n",
               static_cast<int>(invariant.size()), invariant.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void check(bool ok, std::string_view invariant, std::string_view detail = {}) {
  if (!ok) broken(invariant, detail);
}

// Whether text starts with "line:column:" naming a place inside source: a line that exists
// and a column at most one past the last code point (end of input is a position too).
bool starts_with_position(std::string_view text, std::string_view source) {
  uint64_t line = 0;
  uint64_t column = 0;
  const char* const end = text.data() + text.size();
  auto [after_line, line_error] = std::from_chars(text.data(), end, line);
  if (line_error != std::errc() || after_line == end || *after_line != ':') return false;
  auto [after_column, column_error] = std::from_chars(after_line + 1, end, column);
  if (column_error != std::errc() || after_column == end || *after_column != ':') return false;
  const uint64_t lines = 1 + static_cast<uint64_t>(std::count(source.begin(), source.end(), '\n'));
  const uint64_t code_points =
      static_cast<uint64_t>(std::count_if(source.begin(), source.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }));
  return line >= 1 && line <= lines && column >= 1 && column <= code_points + 1;
}

// A result copied out of the evaluator's arena, which the next evaluate() rewinds.
struct Outcome {
  cel::Kind kind = cel::Kind::kNull;
  uint64_t scalar = 0;  // bool, int, uint, double bits, type, error code
  uint32_t error_offset = 0;
  std::string text;  // strings and bytes; JSON of lists and maps

  bool operator==(const Outcome&) const = default;
};

Outcome outcome_of(const cel::Value& value, cel::Arena& print_arena) {
  Outcome outcome;
  outcome.kind = value.kind();
  switch (value.kind()) {
    case cel::Kind::kNull: break;
    case cel::Kind::kBool: outcome.scalar = value.as_bool() ? 1 : 0; break;
    case cel::Kind::kInt: outcome.scalar = static_cast<uint64_t>(value.as_int()); break;
    case cel::Kind::kUint: outcome.scalar = value.as_uint(); break;
    case cel::Kind::kDouble: outcome.scalar = std::bit_cast<uint64_t>(value.as_double()); break;
    case cel::Kind::kString:
    case cel::Kind::kBytes: outcome.text = value.as_text(); break;
    case cel::Kind::kType: outcome.scalar = static_cast<uint64_t>(value.as_type()); break;
    case cel::Kind::kError:
      outcome.scalar = static_cast<uint64_t>(value.error_code());
      outcome.error_offset = value.error_offset();
      break;
    case cel::Kind::kList:
    case cel::Kind::kMap:
      print_arena.reset();
      cel::append_json(value, print_arena, outcome.text);
      break;
  }
  return outcome;
}

std::string describe(const Outcome& outcome) {
  return "kind " + std::to_string(static_cast<int>(outcome.kind)) + " scalar " +
         std::to_string(outcome.scalar) + " offset " + std::to_string(outcome.error_offset) +
         " text " + outcome.text.substr(0, 200);
}

std::optional<cel::Program> compile_checked(std::string_view source,
                                            const cel::CompileOptions& options) {
  try {
    absl::StatusOr<cel::Program> program = cel::compile(source, options);
    if (program.ok()) return std::move(*program);
    const std::string_view message = runtime::sv(program.status().message());
    check(program.status().code() == absl::StatusCode::kInvalidArgument,
          "a compile error is INVALID_ARGUMENT", message);
    check(starts_with_position(message, source),
          "a compile error starts with line:column: inside the source", message);
    return std::nullopt;
  } catch (const std::exception& e) {
    broken("compile never throws", e.what());
  } catch (...) {
    broken("compile never throws", "(not a std::exception)");
  }
}

Outcome evaluate_checked(cel::Evaluator& evaluator, const cel::Program& program,
                         const Variables& variables, cel::Arena& print_arena) {
  try {
    const cel::Value result = evaluator.evaluate(program, variables);
    if (result.is_error()) {
      check(result.error_offset() <= program.source().size(),
            "an error's offset is inside the source", program.source());
      const std::string text = program.error_text(result);
      check(starts_with_position(text, program.source()),
            "error_text starts with line:column: inside the source", text);
    }
    return outcome_of(result, print_arena);
  } catch (const std::exception& e) {
    broken("evaluate never throws", e.what());
  } catch (...) {
    broken("evaluate never throws", "(not a std::exception)");
  }
}

// Binds the members of the JSON object that name request variables; a JSON text that is
// not an object binds nothing. The parser's document backs the values until its next parse.
void bind(std::string_view json, simdjson::dom::parser& parser, cel::Arena& bindings_arena,
          Variables& variables) {
  simdjson::dom::object object;
  if (parser.parse(json.data(), json.size()).get_object().get(object) != simdjson::SUCCESS) {
    return;
  }
  for (const simdjson::dom::key_value_pair member : object) {
    const auto* slot =
        std::find(cel::kRequestVariables.begin(), cel::kRequestVariables.end(), member.key);
    if (slot == cel::kRequestVariables.end()) continue;
    variables[static_cast<size_t>(slot - cel::kRequestVariables.begin())] =
        cel::json_value(member.value, bindings_arena);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Reused across inputs as a core reuses them across requests: a rewound arena must not
  // leak one evaluation into the next.
  static cel::Evaluator evaluator;
  static simdjson::dom::parser parser;
  static cel::Arena bindings_arena(cel::kDefaultArenaBytesMax);
  static cel::Arena print_arena(cel::kDefaultArenaBytesMax);

  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string_view source = input.substr(0, nul);

  const std::optional<cel::Program> production = compile_checked(source, {});
  cel::CompileOptions deferring;
  deferring.defer_unknown_references = true;
  const std::optional<cel::Program> deferred = compile_checked(source, deferring);
  check(!production || deferred, "what compiles in production compiles deferred", source);
  if (!deferred) return 0;

  Variables variables;
  variables.fill(cel::Value::error(cel::ErrorCode::kUnboundVariable, 0));
  bindings_arena.reset();
  if (nul != std::string_view::npos) bind(input.substr(nul + 1), parser, bindings_arena, variables);

  // Production's program when there is one (the catalog's), else the deferred one.
  const cel::Program& program = production ? *production : *deferred;
  const Outcome first = evaluate_checked(evaluator, program, variables, print_arena);
  const Outcome second = evaluate_checked(evaluator, program, variables, print_arena);
  check(first == second, "evaluating twice gives the same result",
        describe(first) + " then " + describe(second));
  if (production) {
    const Outcome unchecked = evaluate_checked(evaluator, *deferred, variables, print_arena);
    check(unchecked == first, "production and deferred programs give the same result",
          describe(first) + " vs " + describe(unchecked));
  }
  return 0;
}
