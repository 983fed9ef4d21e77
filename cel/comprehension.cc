// The macros, evaluated natively rather than as cel-go's generic fold: each has the
// result cel-spec gives its expansion.
//   all:        false if any predicate is false; else the first error; else true.
//   exists:     true if any predicate is true; else the first error; else false.
//   exists_one: an error anywhere is the result; else whether exactly one is true.
//   map/filter: an error anywhere is the result; else the list built.
// A predicate that is not a bool counts as an error (no matching overload), as it would
// inside the && / || / ?: of the expansion.
#include "cel/arena_collections.h"
#include "cel/collections.h"
#include "cel/evaluator.h"
#include "runtime/check.h"

namespace cel {

template <typename Step>
bool Evaluator::for_each_in_range(const Node& node, const Value& range, Step step) {
  DECISIOND_CHECK(node.count < locals_.size());
  Value& variable = locals_[node.count];
  bool within_bound = true;
  const auto visit = [&](const Value& item) {
    if (++iterations_ > limits_.iterations_max || !work_.charge(1)) {
      within_bound = false;
      return false;
    }
    variable = item;
    return step();
  };
  if (range.kind() == Kind::kList) {
    range.as_list().for_each(visit, arena_);
  } else {
    range.as_map().for_each_key(visit, arena_);
  }
  return within_bound;
}

Value Evaluator::comprehension(const Node& node) {
  const Value range = eval(node.operand[0]);
  if (range.is_error()) return range;
  if (range.kind() != Kind::kList && range.kind() != Kind::kMap) {
    return Value::error(ErrorCode::kNoMatchingOverload, node.offset);
  }
  switch (node.op) {
    case Op::kAll: return all_or_exists(node, range, true);
    case Op::kExists: return all_or_exists(node, range, false);
    case Op::kExistsOne: return exists_one(node, range);
    default: return map_or_filter(node, range);
  }
}

Value Evaluator::all_or_exists(const Node& node, const Value& range, bool all) {
  // all stops at the first false, exists at the first true: that value decides.
  const bool deciding = !all;
  bool decided = false;
  Value first_error;
  bool failed = false;
  const bool within_bound = for_each_in_range(node, range, [&] {
    const Value result = eval(node.operand[1]);
    if (result.is_bool()) {
      decided = result.as_bool() == deciding;
      return !decided;
    }
    if (!failed) {
      failed = true;
      first_error =
          result.is_error() ? result : Value::error(ErrorCode::kNoMatchingOverload, node.offset);
    }
    return true;
  });
  if (!within_bound) return Value::error(ErrorCode::kLimitExceeded, node.offset);
  if (decided) return Value::boolean(deciding);
  if (failed) return first_error;
  return Value::boolean(!deciding);
}

Value Evaluator::exists_one(const Node& node, const Value& range) {
  size_t matches = 0;
  Value error;
  bool failed = false;
  const bool within_bound = for_each_in_range(node, range, [&] {
    const Value result = eval(node.operand[1]);
    if (!result.is_bool()) {
      failed = true;
      error =
          result.is_error() ? result : Value::error(ErrorCode::kNoMatchingOverload, node.offset);
      return false;
    }
    matches += result.as_bool() ? 1 : 0;
    return true;
  });
  if (!within_bound) return Value::error(ErrorCode::kLimitExceeded, node.offset);
  if (failed) return error;
  return Value::boolean(matches == 1);
}

Value Evaluator::map_or_filter(const Node& node, const Value& range) {
  const size_t size = range.kind() == Kind::kList ? range.as_list().size() : range.as_map().size();
  Value* items = arena_.allocate_array<Value>(size);
  if (items == nullptr && size > 0) return Value::error(ErrorCode::kLimitExceeded, node.offset);
  size_t count = 0;
  Value error;
  bool failed = false;
  const auto fail = [&](const Value& result) {
    failed = true;
    error = result.is_error() ? result : Value::error(ErrorCode::kNoMatchingOverload, node.offset);
    return false;
  };
  const bool within_bound = for_each_in_range(node, range, [&] {
    const uint32_t transform = node.op == Op::kMapFiltered ? node.operand[2] : node.operand[1];
    if (node.op != Op::kMap) {
      const Value keep = eval(node.operand[1]);
      if (!keep.is_bool()) return fail(keep);
      if (!keep.as_bool()) return true;
    }
    const Value item = node.op == Op::kFilter ? locals_[node.count] : eval(transform);
    if (item.is_error()) return fail(item);
    // A host collection visits as many elements as its size() says: the room taken above.
    DECISIOND_CHECK_MSG(count < size, "a collection visited more elements than its size");
    items[count++] = item;
    return true;
  });
  if (!within_bound) return Value::error(ErrorCode::kLimitExceeded, node.offset);
  if (failed) return error;
  return wrap_list(items, count, arena_, node.offset);
}

}  // namespace cel
