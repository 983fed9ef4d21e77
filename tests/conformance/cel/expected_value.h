#pragma once
// cel.expr.Value messages (cel-spec proto/cel/expr/value.proto) as CEL values, and the
// strict comparison a conformance check needs: unlike CEL's ==, 1 and 1.0 differ here
// (the test says which type the result has), and so do 0.0 and -0.0; NaN matches NaN.
#include "absl/status/statusor.h"
#include "cel/arena.h"
#include "cel/value.h"
#include "tests/conformance/cel/textproto.h"

namespace conformance {

// Lists, maps and strings are built in arena and point into message.
absl::StatusOr<cel::Value> value_from_text(const TextMessage& message,
                                                     cel::Arena& arena);

bool same_value(const cel::Value& actual, const cel::Value& expected,
                cel::Arena& arena);

}  // namespace conformance
