#pragma once
// A reader for the protobuf text format as the CEL conformance files use it
// (../shared/fixtures/cel-spec/FORMAT_NOTES.md): nested messages ("f {" or "f: {" or
// "f <"), scalars (numbers, identifiers like NULL_VALUE or inf), quoted strings with
// C escapes (octal, \x, \u, \U) and adjacent-literal concatenation, repeated values in
// "[...]", "," or ";" separators, '#' comments, and expanded Any names in brackets
// ("[type.googleapis.com/...]"), kept as the field name so callers can spot them. No
// schema: every field is kept in order, by name.
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace conformance {

struct TextField;

struct TextMessage {
  std::vector<TextField> fields;

  const TextField* find(std::string_view name) const;
  std::vector<const TextField*> find_all(std::string_view name) const;
  // The scalar of the first field with this name; empty when absent.
  std::string_view scalar(std::string_view name) const;
  bool flag(std::string_view name) const { return scalar(name) == "true"; }
};

struct TextField {
  std::string name;
  bool is_message = false;
  bool is_quoted = false;  // scalar came from a quoted string (escapes decoded)
  std::string scalar;
  TextMessage message;
};

absl::StatusOr<TextMessage> parse_textproto(std::string_view text);

}  // namespace conformance
