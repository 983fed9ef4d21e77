#pragma once
// Public identifiers as the service prints them: `advertiser_42`, `template_3`.
#include <cstdint>
#include <optional>
#include <string_view>

namespace decision::request {

// The id of `<prefix><id>` where id is a positive integer in canonical form (digits, no
// sign, no leading zero, fits in 64 bits): exactly the strings the service itself issues.
std::optional<uint64_t> parse_public_id(std::string_view text, std::string_view prefix);

}  // namespace decision::request
