#include "cel/evaluator.h"

#include <cmath>
#include <optional>
#include <type_traits>

#include "cel/arena_collections.h"
#include "cel/arithmetic.h"
#include "cel/collections.h"
#include "cel/comparison.h"
#include "cel/conversions.h"
#include "cel/error_values.h"
#include "cel/string_functions.h"
#include "runtime/check.h"

namespace cel {
namespace {

Value logical_not(const Value& x, uint32_t offset) {
  return x.is_bool() ? Value::boolean(!x.as_bool()) : no_overload(offset);
}

// What an operation on value may cost beyond a constant: its bytes (searched, copied,
// compared, counted) or its elements (concatenated, searched by `in`; nested ones charge as
// values_equal visits them).
[[gnu::always_inline]] inline uint64_t operand_weight(const Value& value) {
  switch (value.kind()) {
    case Kind::kString:
    case Kind::kBytes: return value.as_text().size();
    case Kind::kList: return value.as_list().size();
    case Kind::kMap: return value.as_map().size();
    default: return 0;
  }
}

// A host reports a full arena without knowing where in the expression it was asked.
Value located(const Value& value, uint32_t offset) {
  if (value.is_error() && value.error_code() == ErrorCode::kLimitExceeded) {
    return Value::error(ErrorCode::kLimitExceeded, offset);
  }
  return value;
}

// The map key a value stands for: an integral double is the int (or uint) of equal value
// (cel-spec: numeric keys compare by value, {1u: x}[1.0] is x); a kind that cannot be a
// key, or a fractional double, finds nothing.
std::optional<Value> map_key(const Value& key) {
  switch (key.kind()) {
    case Kind::kBool:
    case Kind::kInt:
    case Kind::kUint:
    case Kind::kString: return key;
    case Kind::kDouble: {
      const double d = key.as_double();
      if (d != std::trunc(d)) return std::nullopt;  // NaN and inf fail here or below
      if (d >= -kTwoTo63 && d < kTwoTo63) return Value::integer(static_cast<int64_t>(d));
      if (d >= 0 && d < kTwoTo64) return Value::unsigned_integer(static_cast<uint64_t>(d));
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

// A list index: an int, a uint, or an integral double (the conformance suite's
// [7, 8, 9][dyn(0.0)] is 7).
std::optional<int64_t> list_index(const Value& index) {
  switch (index.kind()) {
    case Kind::kInt: return index.as_int();
    case Kind::kUint:
      if (index.as_uint() > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
      return static_cast<int64_t>(index.as_uint());
    case Kind::kDouble: {
      const double d = index.as_double();
      if (d != std::trunc(d) || !(d >= -kTwoTo63 && d < kTwoTo63)) return std::nullopt;
      return static_cast<int64_t>(d);
    }
    default: return std::nullopt;
  }
}

}  // namespace

Evaluator::Evaluator(EvaluatorLimits limits)
    : limits_(limits), arena_(limits.arena_bytes_max), work_(limits.work_max) {}

Value Evaluator::evaluate(const Program& program, std::span<const Value> variables) {
  arena_.reset();
  work_.reset();
  iterations_ = 0;
  program_ = &program;
  variables_ = variables;
  if (locals_.size() < program.local_count()) locals_.resize(program.local_count());
  // A program is built whole or not at all (Program::check_structure); an empty one is none.
  DECISIOND_CHECK_MSG(program.root() < program.node_count(), "evaluating a program that was never built");
  const Value result = eval(program.root());
  // && and || absorb errors, so a spent meter can hide inside a result that looks like an
  // answer; what ran past the bound is never one.
  if (work_.spent()) return limit_exceeded(program.node(program.root()).offset);
  return result;
}

// One switch, one indirect jump per node: each case calls its operation directly.
Value Evaluator::dispatch(const Node& node) {
  const uint32_t a = node.operand[0];
  const uint32_t offset = node.offset;
  switch (node.op) {
    case Op::kConstant: return program_->constant(a);
    case Op::kVariable: return variable(a, offset);
    case Op::kLocal: return locals_[a];
    case Op::kUnbound: return Value::error(static_cast<ErrorCode>(a), offset);
    case Op::kCreateList: return create_list(node);
    case Op::kCreateMap: return create_map(node);
    case Op::kSelect: return select(node, false);
    case Op::kHasField: return select(node, true);
    case Op::kAnd: return logical_and(node);
    case Op::kOr: return logical_or(node);
    case Op::kConditional: return conditional(node);
    case Op::kAll:
    case Op::kExists:
    case Op::kExistsOne:
    case Op::kMap:
    case Op::kMapFiltered:
    case Op::kFilter: return comprehension(node);

    case Op::kNot: return strict<false>(node, [&](const Value& x) { return logical_not(x, offset); });
    case Op::kNegate: return strict<false>(node, [&](const Value& x) { return negate(x, offset); });
    case Op::kSize: return strict(node, [&](const Value& x) { return size_of(x, offset); });
    case Op::kToInt: return strict(node, [&](const Value& x) { return to_int(x, offset); });
    case Op::kToUint: return strict(node, [&](const Value& x) { return to_uint(x, offset); });
    case Op::kToDouble: return strict(node, [&](const Value& x) { return to_double(x, offset); });
    case Op::kToString: return strict(node, [&](const Value& x) { return to_string(x, arena_, offset); });
    case Op::kToBool: return strict<false>(node, [&](const Value& x) { return to_bool(x, offset); });
    case Op::kToBytes: return strict(node, [&](const Value& x) { return to_bytes(x, offset); });
    case Op::kDyn: return eval(a);
    case Op::kTypeOf: return strict<false>(node, [](const Value& x) { return Value::type(type_of(x)); });
    case Op::kMatchesRegex: return strict(node, [&](const Value& x) { return matches_literal(x, node); });

    case Op::kIndex: return strict(node, [&](const Value& x, const Value& y) { return index(x, y, offset); });
    case Op::kIn: return strict(node, [&](const Value& x, const Value& y) { return in(x, y, offset); });
    case Op::kAdd: return strict(node, [&](const Value& x, const Value& y) { return add(x, y, arena_, offset); });
    case Op::kSubtract:
      return strict<false>(node, [&](const Value& x, const Value& y) { return subtract(x, y, offset); });
    case Op::kMultiply:
      return strict<false>(node, [&](const Value& x, const Value& y) { return multiply(x, y, offset); });
    case Op::kDivide:
      return strict<false>(node, [&](const Value& x, const Value& y) { return divide(x, y, offset); });
    case Op::kModulo:
      return strict<false>(node, [&](const Value& x, const Value& y) { return modulo(x, y, offset); });
    case Op::kEqual: return equality(node, /*equal=*/true);
    case Op::kNotEqual: return equality(node, /*equal=*/false);
    case Op::kLess: return ordering(node, [](Ordering o) { return o == Ordering::kLess; });
    case Op::kLessEqual:
      return ordering(node, [](Ordering o) { return o == Ordering::kLess || o == Ordering::kEqual; });
    case Op::kGreater: return ordering(node, [](Ordering o) { return o == Ordering::kGreater; });
    case Op::kGreaterEqual:
      return ordering(node, [](Ordering o) { return o == Ordering::kGreater || o == Ordering::kEqual; });
    case Op::kContains: return strict(node, [&](const Value& x, const Value& y) { return contains(x, y, offset); });
    case Op::kStartsWith:
      return strict(node, [&](const Value& x, const Value& y) { return starts_with(x, y, offset); });
    case Op::kEndsWith: return strict(node, [&](const Value& x, const Value& y) { return ends_with(x, y, offset); });
    case Op::kMatches: return strict(node, [&](const Value& x, const Value& y) { return matches(x, y, offset); });
  }
  return no_overload(offset);
}

Value Evaluator::variable(uint32_t index, uint32_t offset) const {
  if (index >= variables_.size()) return Value::error(ErrorCode::kUnboundVariable, offset);
  if (variables_[index].is_error()) {  // the host's "absent": point at the reference
    return Value::error(variables_[index].error_code(), offset);
  }
  return variables_[index];
}

// Equality charges what it compares (values_equal), not its operands' sizes: two strings
// of different lengths are unequal at once.
Value Evaluator::equality(const Node& node, bool equal) {
  return strict<false>(node, [&](const Value& x, const Value& y) {
    const bool same = values_equal(x, y, arena_, work_);
    return work_.spent() ? limit_exceeded(node.offset) : Value::boolean(same == equal);
  });
}

template <bool kCharged, typename Operation>
Value Evaluator::strict(const Node& node, Operation operation) {
  const Value first = eval(node.operand[0]);
  if (first.is_error()) return first;
  if constexpr (std::is_invocable_v<Operation, const Value&>) {
    if (kCharged && !work_.charge(1 + operand_weight(first))) return limit_exceeded(node.offset);
    return operation(first);
  } else {
    const Value second = eval(node.operand[1]);
    if (second.is_error()) return second;
    if (kCharged && !work_.charge(1 + operand_weight(first) + operand_weight(second))) {
      return limit_exceeded(node.offset);
    }
    return operation(first, second);
  }
}

// Numbers compare in constant time; strings and bytes charge their bytes.
template <typename Holds>
Value Evaluator::ordering(const Node& node, Holds holds) {
  return strict<false>(node, [&](const Value& x, const Value& y) {
    if (!work_.charge(operand_weight(x) + operand_weight(y))) return limit_exceeded(node.offset);
    const Ordering order = compare(x, y);
    if (order == Ordering::kNoOverload) return no_overload(node.offset);
    return Value::boolean(holds(order));
  });
}

Value Evaluator::matches_literal(const Value& text, const Node& node) const {
  const LiteralRegex* literal = program_->literal_regex(node.operand[1]);
  if (literal == nullptr) return matches(text, program_->regex(node.operand[1]), node.offset);
  if (text.kind() != Kind::kString) return no_overload(node.offset);
  return Value::boolean(literal->partial_match(text.as_text()));
}

Value Evaluator::create_list(const Node& node) {
  if (!work_.charge(1 + node.count)) return limit_exceeded(node.offset);
  Value* items = arena_.allocate_array<Value>(node.count);
  if (items == nullptr && node.count > 0) {
    return Value::error(ErrorCode::kLimitExceeded, node.offset);
  }
  for (uint32_t i = 0; i < node.count; ++i) {
    items[i] = eval(program_->operand_at(node.operand[0] + i));
    if (items[i].is_error()) return items[i];
  }
  return wrap_list(items, node.count, arena_, node.offset);
}

Value Evaluator::create_map(const Node& node) {
  if (!work_.charge(1 + node.count)) return limit_exceeded(node.offset);
  Value* keys = arena_.allocate_array<Value>(node.count);
  Value* values = arena_.allocate_array<Value>(node.count);
  if ((keys == nullptr || values == nullptr) && node.count > 0) {
    return Value::error(ErrorCode::kLimitExceeded, node.offset);
  }
  for (uint32_t i = 0; i < node.count; ++i) {
    keys[i] = eval(program_->operand_at(node.operand[0] + 2 * i));
    if (keys[i].is_error()) return keys[i];
    values[i] = eval(program_->operand_at(node.operand[0] + 2 * i + 1));
    if (values[i].is_error()) return values[i];
  }
  return make_map({keys, node.count}, {values, node.count}, arena_, node.offset);
}

Value Evaluator::select(const Node& node, bool presence_test) {
  const Value operand = eval(node.operand[0]);
  if (operand.is_error()) return operand;
  if (operand.kind() != Kind::kMap) return Value::error(ErrorCode::kNoSuchField, node.offset);
  // Maps, the host's and the arena's, look keys up by scanning them.
  if (!work_.charge(1 + operand.as_map().size())) return limit_exceeded(node.offset);
  const Value& field = program_->constant(node.operand[1]);
  const std::optional<Value> found = operand.as_map().find(field, arena_);
  if (presence_test) return Value::boolean(found.has_value());
  if (!found) return Value::error(ErrorCode::kNoSuchKey, node.offset);
  return located(*found, node.offset);
}

Value Evaluator::index(const Value& container, const Value& key, uint32_t offset) {
  if (container.kind() == Kind::kList) {
    const std::optional<int64_t> position = list_index(key);
    if (!position) return Value::error(ErrorCode::kInvalidIndex, offset);
    const ListValue& list = container.as_list();
    if (*position < 0 || static_cast<uint64_t>(*position) >= list.size()) {
      return Value::error(ErrorCode::kIndexOutOfBounds, offset);
    }
    return located(list.at(static_cast<size_t>(*position), arena_), offset);
  }
  if (container.kind() == Kind::kMap) {
    const std::optional<Value> lookup = map_key(key);
    if (!lookup) return Value::error(ErrorCode::kNoSuchKey, offset);
    const std::optional<Value> found = container.as_map().find(*lookup, arena_);
    if (!found) return Value::error(ErrorCode::kNoSuchKey, offset);
    return located(*found, offset);
  }
  return no_overload(offset);
}

Value Evaluator::in(const Value& element, const Value& container, uint32_t offset) {
  if (container.kind() == Kind::kList) {
    bool found = false;
    container.as_list().for_each(
        [&](const Value& item) {
          found = values_equal(element, item, arena_, work_);
          return !found && !work_.spent();
        },
        arena_);
    return work_.spent() ? limit_exceeded(offset) : Value::boolean(found);
  }
  if (container.kind() == Kind::kMap) {
    const std::optional<Value> lookup = map_key(element);
    return Value::boolean(lookup && container.as_map().find(*lookup, arena_).has_value());
  }
  return no_overload(offset);
}

// CEL's && is commutative over errors: false on either side wins, whatever the other side
// is (error, or a non-bool); only then does an error (or a missing overload) surface.
Value Evaluator::logical_and(const Node& node) {
  const Value left = eval(node.operand[0]);
  if (left.is_bool() && !left.as_bool()) return left;
  const Value right = eval(node.operand[1]);
  if (right.is_bool() && !right.as_bool()) return right;
  if (left.is_bool() && right.is_bool()) return left;  // both true
  const Value& failed = left.is_bool() ? right : left;
  return failed.is_error() ? failed : no_overload(node.offset);
}

Value Evaluator::logical_or(const Node& node) {
  const Value left = eval(node.operand[0]);
  if (left.is_bool() && left.as_bool()) return left;
  const Value right = eval(node.operand[1]);
  if (right.is_bool() && right.as_bool()) return right;
  if (left.is_bool() && right.is_bool()) return left;  // both false
  const Value& failed = left.is_bool() ? right : left;
  return failed.is_error() ? failed : no_overload(node.offset);
}

Value Evaluator::conditional(const Node& node) {
  const Value condition = eval(node.operand[0]);
  if (condition.is_error()) return condition;
  if (!condition.is_bool()) return no_overload(node.offset);
  return eval(condition.as_bool() ? node.operand[1] : node.operand[2]);
}

}  // namespace cel
