#pragma once
// The CEL compiler's entry point: source text in, Program out (or the first error, with
// its position). Compile once (at catalog load), evaluate many times (evaluator.h).
//
//   absl::StatusOr<Program> program = compile("custom.age >= 18 && custom.age < 35");
//   // errors read "1:14: undeclared reference to 'foo'", "1:5: syntax error: ..."
#include <string_view>

#include "absl/status/statusor.h"
#include "cel/compile_options.h"
#include "cel/program.h"

namespace cel {

// INVALID_ARGUMENT for a source past kMaxSourceBytes, not UTF-8, not CEL, or referring to
// anything undeclared (unless options defer it).
absl::StatusOr<Program> compile(std::string_view source, const CompileOptions& options = {});

}  // namespace cel
