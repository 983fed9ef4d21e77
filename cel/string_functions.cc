#include "cel/string_functions.h"

#include "cel/collections.h"
#include "cel/error_values.h"
#include "cel/utf8.h"
#include "cel/text_search.h"

namespace cel {
namespace {

bool both_strings(const Value& a, const Value& b) {
  return a.kind() == Kind::kString && b.kind() == Kind::kString;
}

re2::StringPiece piece(std::string_view text) { return {text.data(), text.size()}; }

}  // namespace

Value size_of(const Value& value, uint32_t offset) {
  switch (value.kind()) {
    case Kind::kString:
      return Value::integer(static_cast<int64_t>(code_point_count(value.as_text())));
    case Kind::kBytes: return Value::integer(static_cast<int64_t>(value.as_text().size()));
    case Kind::kList: return Value::integer(static_cast<int64_t>(value.as_list().size()));
    case Kind::kMap: return Value::integer(static_cast<int64_t>(value.as_map().size()));
    default: return no_overload(offset);
  }
}

Value contains(const Value& text, const Value& part, uint32_t offset) {
  if (!both_strings(text, part)) return no_overload(offset);
  return Value::boolean(find_text(text.as_text(), part.as_text()) != std::string_view::npos);
}

Value starts_with(const Value& text, const Value& prefix, uint32_t offset) {
  if (!both_strings(text, prefix)) return no_overload(offset);
  return Value::boolean(text.as_text().starts_with(prefix.as_text()));
}

Value ends_with(const Value& text, const Value& suffix, uint32_t offset) {
  if (!both_strings(text, suffix)) return no_overload(offset);
  return Value::boolean(text.as_text().ends_with(suffix.as_text()));
}

Value matches(const Value& text, const RE2& regex, uint32_t offset) {
  if (text.kind() != Kind::kString) return no_overload(offset);
  return Value::boolean(RE2::PartialMatch(piece(text.as_text()), regex));
}

Value matches(const Value& text, const Value& pattern, uint32_t offset) {
  if (!both_strings(text, pattern)) return no_overload(offset);
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 regex(piece(pattern.as_text()), options);
  if (!regex.ok()) return Value::error(ErrorCode::kInvalidRegex, offset);
  return matches(text, regex, offset);
}

}  // namespace cel
