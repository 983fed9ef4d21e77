#pragma once
// cel.expr.Value messages (cel-spec proto/cel/expr/value.proto) as CEL values, and the
// strict comparison a conformance check needs: unlike CEL's ==, 1 and 1.0 differ here
// (the test says which type the result has), and so do 0.0 and -0.0; NaN matches NaN.
#include "absl/status/statusor.h"
#include "decision/targeting/cel/arena.h"
#include "decision/targeting/cel/value.h"
#include "tests/conformance/cel/textproto.h"

namespace conformance {

// Lists, maps and strings are built in arena and point into message.
absl::StatusOr<decision::cel::Value> value_from_text(const TextMessage& message,
                                                     decision::cel::Arena& arena);

bool same_value(const decision::cel::Value& actual, const decision::cel::Value& expected,
                decision::cel::Arena& arena);

}  // namespace conformance
