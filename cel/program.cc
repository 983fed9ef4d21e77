#include "cel/program.h"

#include <re2/re2.h>

#include "absl/strings/str_cat.h"
#include "cel/source_position.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace cel {
namespace {

// Constants are bounded by the source size; this only guards the arena's own arithmetic.
constexpr size_t kConstantBytesMax = size_t{64} << 20;

// How many of a node's operands (a, b, c) are ids of other nodes.
uint32_t node_operands(Op op) {
  switch (op) {
    case Op::kConstant:
    case Op::kVariable:
    case Op::kLocal:
    case Op::kUnbound:
    case Op::kCreateList:
    case Op::kCreateMap: return 0;
    case Op::kSelect:
    case Op::kHasField:
    case Op::kMatchesRegex:
    case Op::kNot:
    case Op::kNegate:
    case Op::kSize:
    case Op::kToInt:
    case Op::kToUint:
    case Op::kToDouble:
    case Op::kToString:
    case Op::kToBool:
    case Op::kToBytes:
    case Op::kDyn:
    case Op::kTypeOf: return 1;
    case Op::kConditional:
    case Op::kMapFiltered: return 3;
    default: return 2;  // binary operators and functions, the other macros
  }
}

bool is_macro(Op op) { return op >= Op::kAll && op <= Op::kFilter; }

}  // namespace

Program::Program() : constant_arena_(kConstantBytesMax) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

std::optional<size_t> Program::variable_slot(std::string_view name) const {
  for (size_t i = 0; i < variable_names_.size(); ++i) {
    if (variable_names_[i] == name) return i;
  }
  return std::nullopt;
}

void Program::check_structure() const {
  DECISIOND_CHECK(root_ < nodes_.size());
  DECISIOND_CHECK(literal_regexes_.size() == regexes_.size());
  for (uint32_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    for (uint32_t i = 0; i < node_operands(node.op); ++i) {
      DECISIOND_CHECK_MSG(node.operand[i] < id, "a CEL node whose operand is not a node built before it");
    }
    const uint32_t a = node.operand[0];
    switch (node.op) {
      case Op::kConstant: DECISIOND_CHECK(a < constants_.size()); break;
      case Op::kVariable: DECISIOND_CHECK(a < variable_names_.size()); break;
      case Op::kLocal: DECISIOND_CHECK(a < local_count_); break;
      case Op::kUnbound: DECISIOND_CHECK(a <= static_cast<uint32_t>(ErrorCode::kLimitExceeded)); break;
      case Op::kCreateList:
      case Op::kCreateMap: {
        const size_t run = size_t{node.count} * (node.op == Op::kCreateMap ? 2 : 1);
        DECISIOND_CHECK(size_t{a} + run <= operands_.size());
        for (size_t i = 0; i < run; ++i) DECISIOND_CHECK(operands_[a + i] < id);
        break;
      }
      case Op::kSelect:
      case Op::kHasField: DECISIOND_CHECK(node.operand[1] < constants_.size()); break;
      case Op::kMatchesRegex: DECISIOND_CHECK(node.operand[1] < regexes_.size()); break;
      default:
        if (is_macro(node.op)) DECISIOND_CHECK_MSG(node.count < local_count_, "a CEL macro without its local slot");
        break;
    }
  }
}

std::string Program::error_text(const Value& error) const {
  DECISIOND_CHECK(error.is_error());
  return absl::StrCat(position_text(source_, error.error_offset()), ": ",
                      runtime::av(error_message(error.error_code())));
}

}  // namespace cel
