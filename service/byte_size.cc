#include "service/byte_size.h"

#include "absl/strings/numbers.h"

namespace service {

std::optional<uint64_t> parse_bytes(std::string_view text) {
  struct Unit {
    std::string_view suffix;
    uint64_t bytes;
  };
  constexpr Unit kUnits[] = {{"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}, {"B", 1}};
  uint64_t multiplier = 1;
  for (const Unit& unit : kUnits) {
    if (text.ends_with(unit.suffix)) {
      text.remove_suffix(unit.suffix.size());
      multiplier = unit.bytes;
      break;
    }
  }
  uint64_t value = 0;
  if (!absl::SimpleAtoi(absl::string_view(text.data(), text.size()), &value) || value > (UINT64_MAX / multiplier)) {
    return std::nullopt;
  }
  return value * multiplier;
}

}  // namespace service
