#pragma once
// The functions an expression may call, by name, call style and number of arguments
// (cel-spec doc/langdef.md, "Standard definitions", for the supported subset). The checker
// resolves every call here once, to an opcode.
#include <cstddef>
#include <string_view>

#include "cel/program.h"

namespace cel {

struct FunctionMatch {
  enum Kind { kFound, kWrongArity, kUnknown };
  Kind kind = kUnknown;
  Op op = Op::kConstant;
};

// receiver: called as x.f(args) rather than f(x, args); args excludes the receiver.
FunctionMatch find_function(std::string_view name, bool receiver, size_t args);

}  // namespace cel
