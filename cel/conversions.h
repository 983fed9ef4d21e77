#pragma once
// CEL's type conversions (cel-spec doc/langdef.md, "Type conversions"), with cel-go's
// edge cases, which the conformance suite pins down:
//   int(x):    uint up to INT64_MAX; double truncated toward zero, strictly inside
//              (-2^63, 2^63) (so int(-9223372036854775808.0) is a range error); decimal
//              string ("+5", "-5").
//   uint(x):   int >= 0; double truncated, in [0, 2^64); decimal string.
//   double(x): int, uint; string in Go's ParseFloat syntax ("1e3", "-0.0", "inf", "NaN").
//   string(x): int, uint in decimal; double in Go's shortest %g form ("123.456",
//              "-0.0045", "1e+06"); bytes that are valid UTF-8; bool; a type's name.
//   bool(x):   "true"/"false" and Go's other spellings ("1", "t", "TRUE", "True", ...).
//   bytes(x):  a string's UTF-8 bytes.
//   type(x):   the type denotation of x; dyn(x) is x.
// Every conversion is the identity on its own type. Operands are not errors.
#include <cstdint>

#include "cel/arena.h"
#include "cel/value.h"

namespace cel {

Value to_int(const Value& value, uint32_t offset);
Value to_uint(const Value& value, uint32_t offset);
Value to_double(const Value& value, uint32_t offset);
Value to_string(const Value& value, Arena& arena, uint32_t offset);
Value to_bool(const Value& value, uint32_t offset);
Value to_bytes(const Value& value, uint32_t offset);

// Go's strconv.FormatFloat(d, 'g', -1, 64), which cel-go's string(double) is. Writes at
// most 32 characters to out; returns how many.
size_t format_double_shortest_g(double d, char* out);

}  // namespace cel
