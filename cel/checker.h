#pragma once
// Turns a syntax tree into a Program, resolving at compile time everything that can be:
//   - identifiers: comprehension variables (innermost first), then declared variables
//     (dotted names longest first: `a.b.c` is the variable "a.b.c" if declared, else
//     field c of "a.b"), then type denotations (int, string, ...); otherwise refused with
//     "undeclared reference to 'name'";
//   - operators and functions to opcodes (an unknown function or a known one with the
//     wrong number of arguments is refused);
//   - macros (has, all, exists, exists_one, map, filter) to comprehension nodes;
//   - matches() with a literal pattern to an RE2 compiled once (a bad pattern is refused);
//   - list and map literals of constants to constants, built once.
// Types are not checked statically: the request variables are dynamic (JSON-like maps), so
// a type mismatch is an evaluation error, which makes the ad ineligible.
#include <string_view>

#include "absl/status/statusor.h"
#include "cel/ast.h"
#include "cel/compile_options.h"
#include "cel/program.h"

namespace cel {

// Errors: INVALID_ARGUMENT "line:column: message".
absl::StatusOr<Program> check(const Ast& ast, std::string_view source,
                              const CompileOptions& options);

}  // namespace cel
