#pragma once
// What an expression may refer to, and how strictly names are checked.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace cel {

// The variables of a targeting.custom rule (docs/targeting.md, "Custom"): the request's
// targeting.custom map and its user, device and app objects. Slots 0..3, in this order.
inline constexpr std::array<std::string_view, 4> kRequestVariables = {"custom", "user", "device",
                                                                      "app"};

struct CompileOptions {
  // Names declared beside the request variables, slots from 4 in this order (the
  // conformance tests bind their own: x, y, "a.b.c"). Dotted names resolve longest first.
  std::vector<std::string> extra_variables;
  // cel-spec's unchecked mode (disable_check): an undeclared name or unknown function
  // compiles to an error raised if evaluated (so `x || true` is true). Off, as in
  // production, such an expression is refused at compile time with its position.
  bool defer_unknown_references = false;
  // Off: has, all, exists, exists_one, map and filter are plain (unknown) functions.
  bool macros = true;
};

}  // namespace cel
