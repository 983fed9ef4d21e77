#include "decision/request/public_id.h"

#include "decision/request/json_number.h"

namespace decision::request {

std::optional<uint64_t> parse_public_id(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return std::nullopt;
  const std::string_view digits = text.substr(prefix.size());
  if (digits.empty() || digits.front() == '0') return std::nullopt;
  return digits_value(digits);  // nothing on a non-digit or overflow; nonzero by the check above
}

}  // namespace decision::request
