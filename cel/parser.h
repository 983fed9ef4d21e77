#pragma once
// CEL's grammar (cel-spec doc/langdef.md) by recursive descent, lowest precedence first:
//   expr  = or ["?" or ":" expr]
//   or    = and {"||" and}              and = relation {"&&" relation}
//   relation = sum {("<"|"<="|">="|">"|"=="|"!="|"in") sum}
//   sum   = product {("+"|"-") product}  product = unary {("*"|"/"|"%") unary}
//   unary = member | "!"+ member | "-"+ member
//   member = primary {"." IDENT ["(" args ")"] | "." `QUOTED` | "[" expr "]"}
//   primary = ["."] IDENT ["(" args ")"] | "(" expr ")" | "[" [exprs [","]] "]"
//           | "{" [entries [","]] "}" | literal
// As in cel-go: "-" directly before a number is part of the literal (so
// -9223372036854775808 is an int), and an even run of "!" or "-" cancels out.
// Not supported (refused with a syntax error saying so): message construction
// `Type{field: v}` and the optional syntax `.?` / `[?`.
#include <string_view>

#include "absl/status/statusor.h"
#include "cel/ast.h"

namespace cel {

// Errors: INVALID_ARGUMENT "line:column: syntax error: ...".
absl::StatusOr<Ast> parse(std::string_view source);

}  // namespace cel
