#pragma once
// Sizes in flags: "268435456", "256MiB", "64KiB", "1GiB".
#include <cstdint>
#include <optional>
#include <string_view>

namespace service {

// nullopt for anything else, or a size past 2^64.
std::optional<uint64_t> parse_bytes(std::string_view text);

}  // namespace service
