#include "cel/function_table.h"

#include <array>

namespace cel {
namespace {

struct Overload {
  std::string_view name;
  bool receiver;
  size_t args;  // besides the receiver
  Op op;
};

constexpr std::array<Overload, 15> kOverloads = {{
    {"size", false, 1, Op::kSize},
    {"size", true, 0, Op::kSize},
    {"contains", true, 1, Op::kContains},
    {"startsWith", true, 1, Op::kStartsWith},
    {"endsWith", true, 1, Op::kEndsWith},
    {"matches", true, 1, Op::kMatches},
    {"matches", false, 2, Op::kMatches},
    {"int", false, 1, Op::kToInt},
    {"uint", false, 1, Op::kToUint},
    {"double", false, 1, Op::kToDouble},
    {"string", false, 1, Op::kToString},
    {"bool", false, 1, Op::kToBool},
    {"bytes", false, 1, Op::kToBytes},
    // dyn() only matters to a static type checker; at run time it is the identity.
    {"dyn", false, 1, Op::kDyn},
    {"type", false, 1, Op::kTypeOf},
}};

// The checker puts a call's operands in one node, which holds three (program.h).
constexpr bool every_overload_fits_a_node() {
  for (const Overload& overload : kOverloads) {
    if (overload.args + (overload.receiver ? 1 : 0) > 3) return false;
  }
  return true;
}
static_assert(every_overload_fits_a_node(), "an overload with more operands than a node holds");

}  // namespace

FunctionMatch find_function(std::string_view name, bool receiver, size_t args) {
  FunctionMatch match;
  for (const Overload& overload : kOverloads) {
    if (overload.name != name) continue;
    if (overload.receiver == receiver && overload.args == args) {
      return FunctionMatch{FunctionMatch::kFound, overload.op};
    }
    match.kind = FunctionMatch::kWrongArity;
  }
  return match;
}

}  // namespace cel
