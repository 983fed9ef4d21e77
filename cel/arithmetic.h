#pragma once
// CEL's arithmetic operators (cel-spec doc/langdef.md, "Arithmetic"):
//   - int and uint arithmetic is checked: a result outside int64 / uint64 is an error
//     (overflow), never a wrap: INT64_MAX + 1, INT64_MIN / -1, -INT64_MIN, 0u - 1u;
//   - division or modulus by zero is an error for int and uint; double follows IEEE 754
//     (1.0 / 0.0 is +inf) and has no modulus;
//   - no mixing: int + uint and int + double have no overload (write 1.0 + double(x));
//   - + also concatenates strings, bytes and lists (in the evaluation's arena).
// Operands are not errors (the evaluator propagates those before calling); offset is
// where a failure points.
#include <cstdint>

#include "cel/arena.h"
#include "cel/value.h"

namespace cel {

Value add(const Value& a, const Value& b, Arena& arena, uint32_t offset);
Value subtract(const Value& a, const Value& b, uint32_t offset);
Value multiply(const Value& a, const Value& b, uint32_t offset);
Value divide(const Value& a, const Value& b, uint32_t offset);
Value modulo(const Value& a, const Value& b, uint32_t offset);
Value negate(const Value& a, uint32_t offset);

}  // namespace cel
