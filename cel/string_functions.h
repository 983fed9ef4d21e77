#pragma once
// size() and the string functions (cel-spec doc/langdef.md, "String functions"): size of
// a string counts code points, of bytes counts bytes; contains, startsWith and endsWith
// compare bytes (UTF-8 makes that code-point exact); matches is RE2's partial match (the
// pattern may match anywhere; anchor it with ^...$), as CEL specifies RE2 syntax.
// Operands are not errors.
#include <re2/re2.h>

#include <cstdint>

#include "cel/value.h"

namespace cel {

Value size_of(const Value& value, uint32_t offset);
Value contains(const Value& text, const Value& part, uint32_t offset);
Value starts_with(const Value& text, const Value& prefix, uint32_t offset);
Value ends_with(const Value& text, const Value& suffix, uint32_t offset);
// With a pattern compiled at compile time.
Value matches(const Value& text, const RE2& regex, uint32_t offset);
// With a pattern computed at run time: compiled here, on the heap, every time (rules
// should use literal patterns; docs/cel.md says so).
Value matches(const Value& text, const Value& pattern, uint32_t offset);

}  // namespace cel
