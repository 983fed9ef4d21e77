#pragma once
// Where a JSON text stops being JSON. simdjson's DOM parser says only that a document is
// invalid; an operator needs the line and column. This strict RFC 8259 scanner runs only
// after simdjson refused a document, so its speed does not matter.
#include <optional>
#include <string>
#include <string_view>

#include "decision/catalog/catalog_error.h"

namespace decision::catalog {

struct SyntaxError {
  TextPosition position;
  std::string what;  // "unexpected end of input", "expected ',' or '}'", ...
};

// The first syntax error of text, or nullopt when it is one valid JSON value (with
// whitespace around it). Nesting deeper than kMaxJsonDepth is an error, as in simdjson.
std::optional<SyntaxError> find_syntax_error(std::string_view text);

// Line and column (from 1, in bytes) of a byte offset.
TextPosition position_of(std::string_view text, size_t offset);

}  // namespace decision::catalog
