#pragma once
// A value as JSON text, for decisiond-cel's output and test diagnostics. JSON cannot say
// everything CEL can, so:
//   - int and uint print as JSON integers; a double always has a '.' or an exponent
//     (1.0, not 1) so that it reads back as one; NaN and infinities, which JSON lacks,
//     print as the strings "NaN", "Infinity", "-Infinity";
//   - bytes print as a string of their standard base64 (RFC 4648 section 4);
//   - a map key that is not a string prints as the JSON string of its value ("1", "true");
//   - a type prints as its name ("int"); an error as {"error": "message"}.
#include <string>

#include "cel/arena.h"
#include "cel/value.h"

namespace cel {

// The arena holds views of nested host collections read while printing.
void append_json(const Value& value, Arena& arena, std::string& out);

}  // namespace cel
