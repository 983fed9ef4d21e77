#pragma once
// CEL equality and ordering (cel-spec doc/langdef.md, "Equality" and "Ordering"), as the
// conformance suite pins them down:
//   - numbers compare by value across int, uint and double: 1 == 1u == 1.0, 1u < 2,
//     -1 < 0u. An int or uint is compared with a double as a double once the double is
//     known to be inside the integer's range (cel-go's rule: so 2^63-1 == 2^63 as a double).
//     NaN is unordered and equal to nothing, itself included;
//   - other values of different types are unequal (no error: `1 == 'a'` is false), and
//     not ordered (`'a' < 1` has no overload);
//   - strings order bytewise (which for UTF-8 is code point order), bytes bytewise,
//     false < true; lists and maps, null and types have equality but no order;
//   - lists are equal element by element, maps when they hold the same keys with equal
//     values, in any order.
#include "cel/arena.h"
#include "cel/value.h"
#include "cel/work_meter.h"

namespace cel {

enum class Ordering : uint8_t { kLess, kEqual, kGreater, kUnordered, kNoOverload };

// Neither value is an error. The arena holds views of nested host collections read while
// comparing lists and maps. Every element visited and every byte compared is charged to
// work; once it is spent the answer is false and the caller reports the limit.
bool values_equal(const Value& a, const Value& b, Arena& arena, WorkMeter& work);
Ordering compare(const Value& a, const Value& b);

bool is_number(const Value& value);

}  // namespace cel
