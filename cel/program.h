#pragma once
// A compiled CEL expression: what the checker makes of the syntax tree and the evaluator
// walks. Every name, function, operator and macro is resolved here, so evaluation never
// looks anything up by name: a node is an opcode, its operands are node ids, constant
// indexes or variable slots. Immutable once built; any number of evaluators may read one
// program at the same time.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cel/arena.h"
#include "cel/literal_regex.h"
#include "cel/value.h"

namespace re2 {
class RE2;
}

namespace cel {

enum class Op : uint8_t {
  kConstant,     // constants[a]
  kVariable,     // variables[a]
  kLocal,        // the comprehension variable in slot a
  kUnbound,      // unchecked mode only: raises ErrorCode(a) (unbound variable or function)
  kCreateList,   // count elements: node ids at operands[a ...]
  kCreateMap,    // count entries: key and value node ids interleaved at operands[a ...]
  kSelect,       // a . constants[b] (the field name, a string)
  kHasField,     // has(a . constants[b])
  kIndex,        // a [ b ]
  kIn,           // a in b
  kAnd,          // a && b, errors absorbed as CEL defines
  kOr,           // a || b, idem
  kNot,          // !a
  kConditional,  // a ? b : c
  kNegate,
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kModulo,
  kEqual,
  kNotEqual,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kSize,          // size(a)
  kContains,      // a.contains(b)
  kStartsWith,    // a.startsWith(b)
  kEndsWith,      // a.endsWith(b)
  kMatchesRegex,  // a.matches(regex b): the pattern was a literal, compiled once
  kMatches,       // a.matches(b): the pattern is computed, compiled per evaluation
  kToInt,
  kToUint,
  kToDouble,
  kToString,
  kToBool,
  kToBytes,
  kDyn,
  kTypeOf,
  // Macros: range a, loop variable in local slot `count`, predicate or transform b,
  // transform c (kMapFiltered: map(x, b, c)).
  kAll,
  kExists,
  kExistsOne,
  kMap,
  kMapFiltered,
  kFilter,
};

struct Node {
  Op op = Op::kConstant;
  uint16_t count = 0;   // kCreateList/kCreateMap: elements or entries; macros: local slot
  uint32_t offset = 0;  // byte offset in the source: errors raised here point at it
  std::array<uint32_t, 3> operand{};  // a, b, c above
};

class Program {
 public:
  Program();
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  std::string_view source() const { return source_; }
  // Variables by slot: the request variables first (compile_options.h), then the
  // declared extras in the order given.
  std::span<const std::string> variable_names() const { return variable_names_; }
  std::optional<size_t> variable_slot(std::string_view name) const;

  // "line:column: message" of an error value this program produced.
  std::string error_text(const Value& error) const;

  // For the evaluator.
  uint32_t root() const { return root_; }
  const Node& node(uint32_t id) const { return nodes_[id]; }
  uint32_t operand_at(uint32_t index) const { return operands_[index]; }
  const Value& constant(uint32_t index) const { return constants_[index]; }
  const re2::RE2& regex(uint32_t index) const { return *regexes_[index]; }
  // The same pattern when it is literal text and ".*" only; null otherwise.
  const LiteralRegex* literal_regex(uint32_t index) const {
    return literal_regexes_[index] ? &*literal_regexes_[index] : nullptr;
  }
  size_t local_count() const { return local_count_; }
  size_t node_count() const { return nodes_.size(); }

  // Every node's operands point where its opcode says: nodes built before it (so the tree
  // has no cycle), constants, variable and local slots, operand runs and regexes that
  // exist. Run once when a program is built; stops the process on a checker bug, so that
  // the evaluator indexes without a check per node.
  void check_structure() const;

 private:
  friend class ProgramBuilder;  // checker.cc

  std::string source_;
  std::vector<std::string> variable_names_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> operands_;
  std::vector<Value> constants_;
  std::vector<std::unique_ptr<re2::RE2>> regexes_;
  std::vector<std::optional<LiteralRegex>> literal_regexes_;  // parallel to regexes_
  Arena constant_arena_;  // strings, lists and maps the constants point into
  uint32_t root_ = 0;
  size_t local_count_ = 0;
};

}  // namespace cel
