#pragma once
// Runs compiled programs. One Evaluator per core, reused for every evaluation: it owns the
// arena that run-time strings, lists and maps live in and the comprehension variables,
// both kept between evaluations, so a warm evaluator allocates nothing from the heap
// (except to compile a regex pattern computed at run time).
//
//   Evaluator evaluator;
//   const Value variables[] = {custom, user, device, app};   // kRequestVariables order
//   if (holds(evaluator.evaluate(program, variables))) ...  // the rule matches
//
// Errors are values (Value::is_error): an operator or function that fails yields an error
// that flows on; && and || absorb it as CEL defines (false && error is false, error || true
// is true); anything else ends with the error as the result. Program::error_text() says
// what and where.
#include <cstdint>
#include <span>
#include <vector>

#include "cel/arena.h"
#include "cel/limits.h"
#include "cel/program.h"
#include "cel/value.h"
#include "cel/work_meter.h"

namespace cel {

struct EvaluatorLimits {
  size_t arena_bytes_max = kDefaultArenaBytesMax;
  uint64_t iterations_max = kDefaultIterationsMax;
  uint64_t work_max = kDefaultWorkMax;
};

// A targeting rule holds only when its expression evaluates to true: false, an error or a
// value of another type all leave the ad ineligible.
inline bool holds(const Value& result) { return result.is_bool() && result.as_bool(); }

class Evaluator {
 public:
  explicit Evaluator(EvaluatorLimits limits = {});

  // variables[i] is the value of program.variable_names()[i]; a slot past the span's end
  // is unbound (reading it is an error, ErrorCode::kUnboundVariable), and so is a slot the
  // host fills with that error for an absent request object. The result, and every string,
  // list and map in it, lives until the next evaluate().
  Value evaluate(const Program& program, std::span<const Value> variables);

  // Bytes the last evaluation took from the arena, and the work it did (for tests and
  // metrics).
  size_t arena_bytes_used() const { return arena_.bytes_used(); }
  uint64_t work_used() const { return work_.used(); }

 private:
  // Constants, variables and comprehension variables are read here rather than
  // dispatched: they are about half the nodes of a typical rule, and the dispatch's
  // indirect jump is the main cost of walking a tree (measured in perf/cel_bench.cc).
  [[gnu::always_inline]] Value eval(uint32_t id) {
    const Node& node = program_->node(id);
    if (node.op == Op::kConstant) return program_->constant(node.operand[0]);
    if (node.op == Op::kLocal) return locals_[node.operand[0]];
    if (node.op == Op::kVariable && node.operand[0] < variables_.size() &&
        !variables_[node.operand[0]].is_error()) {
      return variables_[node.operand[0]];
    }
    return dispatch(node);
  }
  Value dispatch(const Node& node);
  // A variable the fast path of eval() did not read: unbound, or the host's "absent".
  Value variable(uint32_t index, uint32_t offset) const;
  // == and !=: equal says which one.
  Value equality(const Node& node, bool equal);
  Value create_list(const Node& node);
  Value create_map(const Node& node);
  Value select(const Node& node, bool presence_test);
  Value index(const Value& container, const Value& key, uint32_t offset);
  Value in(const Value& element, const Value& container, uint32_t offset);
  Value logical_and(const Node& node);
  Value logical_or(const Node& node);
  Value conditional(const Node& node);
  // Strict operations: the first error among the operands (left to right) is the result;
  // operation takes one or two operand values.
  // kCharged: the operation's cost grows with its operands' bytes or elements, which it
  // charges to the work meter first; operations on numbers and bools cost a constant.
  template <bool kCharged = true, typename Operation>
  Value strict(const Node& node, Operation operation);
  // <, <=, >, >= : holds says which orderings make the relation true.
  template <typename Holds>
  Value ordering(const Node& node, Holds holds);
  Value matches_literal(const Value& text, const Node& node) const;

  // comprehension.cc
  Value comprehension(const Node& node);
  Value all_or_exists(const Node& node, const Value& range, bool all);
  Value exists_one(const Node& node, const Value& range);
  Value map_or_filter(const Node& node, const Value& range);
  // Binds each element (list) or key (map) of range to the node's local slot and calls
  // step until it returns false; false when the iteration bound stopped it.
  template <typename Step>
  bool for_each_in_range(const Node& node, const Value& range, Step step);

  EvaluatorLimits limits_;
  Arena arena_;
  WorkMeter work_;
  std::vector<Value> locals_;
  const Program* program_ = nullptr;
  std::span<const Value> variables_;
  uint64_t iterations_ = 0;
};

}  // namespace cel
