#include "cel/checker.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cel/arena_collections.h"
#include "cel/function_table.h"
#include "cel/source_position.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace cel {
namespace {

struct TypeDenotation {
  std::string_view name;
  TypeName type;
};

constexpr std::array<TypeDenotation, 10> kTypeDenotations = {{
    {"null_type", TypeName::kNullType},
    {"bool", TypeName::kBool},
    {"int", TypeName::kInt},
    {"uint", TypeName::kUint},
    {"double", TypeName::kDouble},
    {"string", TypeName::kString},
    {"bytes", TypeName::kBytes},
    {"list", TypeName::kList},
    {"map", TypeName::kMap},
    {"type", TypeName::kType},
}};

std::optional<Op> binary_op(TokenKind token) {
  switch (token) {
    case TokenKind::kAndAnd: return Op::kAnd;
    case TokenKind::kOrOr: return Op::kOr;
    case TokenKind::kPlus: return Op::kAdd;
    case TokenKind::kMinus: return Op::kSubtract;
    case TokenKind::kStar: return Op::kMultiply;
    case TokenKind::kSlash: return Op::kDivide;
    case TokenKind::kPercent: return Op::kModulo;
    case TokenKind::kEqualEqual: return Op::kEqual;
    case TokenKind::kNotEqual: return Op::kNotEqual;
    case TokenKind::kLess: return Op::kLess;
    case TokenKind::kLessEqual: return Op::kLessEqual;
    case TokenKind::kGreater: return Op::kGreater;
    case TokenKind::kGreaterEqual: return Op::kGreaterEqual;
    case TokenKind::kIn: return Op::kIn;
    default: return std::nullopt;
  }
}

}  // namespace

class ProgramBuilder {
 public:
  ProgramBuilder(const Ast& ast, std::string_view source, const CompileOptions& options)
      : ast_(ast), options_(options) {
    program_.source_ = std::string(source);
    for (const std::string_view name : kRequestVariables) {
      program_.variable_names_.emplace_back(name);
    }
    for (const std::string& name : options.extra_variables) {
      program_.variable_names_.push_back(name);
    }
  }

  absl::StatusOr<Program> build() {
    const uint32_t root = compile(ast_.root);
    if (failed_) return error_;
    program_.root_ = root;
    // Once per program, so that the evaluator may index without checking per node.
    program_.check_structure();
    return std::move(program_);
  }

 private:
  struct Scope {
    std::string_view name;
    uint16_t slot;
  };

  void fail(uint32_t offset, std::string_view message) {
    if (failed_) return;
    failed_ = true;
    error_ = absl::InvalidArgumentError(
        absl::StrCat(position_text(program_.source_, offset), ": ", runtime::av(message)));
  }

  uint32_t emit(Op op, uint32_t offset, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0,
                uint16_t count = 0) {
    Node node;
    node.op = op;
    node.count = count;
    node.offset = offset;
    node.operand = {a, b, c};
    program_.nodes_.push_back(node);
    return static_cast<uint32_t>(program_.nodes_.size() - 1);
  }

  uint32_t constant(const Value& value, uint32_t offset) {
    program_.constants_.push_back(value);
    return emit(Op::kConstant, offset, static_cast<uint32_t>(program_.constants_.size() - 1));
  }

  uint32_t constant_index(const Value& value) {
    program_.constants_.push_back(value);
    return static_cast<uint32_t>(program_.constants_.size() - 1);
  }

  Value text_constant(std::string_view text, bool bytes) {
    // Literal text is bounded by the source size, far below the arena's bound.
    const std::string_view copy = program_.constant_arena_.copy(text).value_or(std::string_view());
    return bytes ? Value::bytes(copy) : Value::string(copy);
  }

  bool is_constant(uint32_t id) const {
    DECISIOND_CHECK(id < program_.nodes_.size());
    return program_.nodes_[id].op == Op::kConstant;
  }
  const Value& constant_of(uint32_t id) const {
    DECISIOND_CHECK(is_constant(id) && program_.nodes_[id].operand[0] < program_.constants_.size());
    return program_.constants_[program_.nodes_[id].operand[0]];
  }

  uint32_t compile(uint32_t id) {
    if (failed_) return 0;
    const SyntaxNode& node = ast_.node(id);
    switch (node.kind) {
      case SyntaxKind::kLiteral: return literal(ast_.literal(node), node.offset);
      case SyntaxKind::kIdent: return identifier(ast_.name(node), node.offset);
      case SyntaxKind::kSelect: return select(id);
      case SyntaxKind::kCall: return call(node);
      case SyntaxKind::kIndex: {
        const uint32_t operand = compile(ast_.child(node, 0));
        const uint32_t index = compile(ast_.child(node, 1));
        return emit(Op::kIndex, node.offset, operand, index);
      }
      case SyntaxKind::kUnary: {
        const uint32_t operand = compile(ast_.child(node, 0));
        return emit(node.op == TokenKind::kExclamation ? Op::kNot : Op::kNegate, node.offset,
                    operand);
      }
      case SyntaxKind::kBinary: {
        const uint32_t left = compile(ast_.child(node, 0));
        const uint32_t right = compile(ast_.child(node, 1));
        return emit(*binary_op(node.op), node.offset, left, right);
      }
      case SyntaxKind::kConditional: {
        const uint32_t condition = compile(ast_.child(node, 0));
        const uint32_t then = compile(ast_.child(node, 1));
        const uint32_t otherwise = compile(ast_.child(node, 2));
        return emit(Op::kConditional, node.offset, condition, then, otherwise);
      }
      case SyntaxKind::kList:
      case SyntaxKind::kMap: return aggregate(node);
    }
    return 0;
  }

  uint32_t literal(const Literal& literal, uint32_t offset) {
    switch (literal.kind) {
      case Literal::Kind::kNull: return constant(Value::null(), offset);
      case Literal::Kind::kBool: return constant(Value::boolean(literal.b), offset);
      case Literal::Kind::kInt: return constant(Value::integer(literal.i), offset);
      case Literal::Kind::kUint: return constant(Value::unsigned_integer(literal.u), offset);
      case Literal::Kind::kDouble: return constant(Value::floating(literal.d), offset);
      case Literal::Kind::kString: return constant(text_constant(literal.text, false), offset);
      case Literal::Kind::kBytes: return constant(text_constant(literal.text, true), offset);
    }
    return 0;
  }

  std::optional<uint16_t> local_slot(std::string_view name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      if (scope->name == name) return scope->slot;
    }
    return std::nullopt;
  }

  uint32_t identifier(std::string_view name, uint32_t offset) {
    if (const std::optional<uint16_t> slot = local_slot(name)) {
      return emit(Op::kLocal, offset, *slot);
    }
    if (const std::optional<size_t> slot = program_.variable_slot(name)) {
      return emit(Op::kVariable, offset, static_cast<uint32_t>(*slot));
    }
    for (const TypeDenotation& denotation : kTypeDenotations) {
      if (denotation.name == name) return constant(Value::type(denotation.type), offset);
    }
    return unresolved(offset, absl::StrCat("undeclared reference to '", runtime::av(name), "'"),
                      ErrorCode::kUnboundVariable);
  }

  uint32_t unresolved(uint32_t offset, std::string_view message, ErrorCode deferred) {
    if (options_.defer_unknown_references) {
      return emit(Op::kUnbound, offset, static_cast<uint32_t>(deferred));
    }
    fail(offset, message);
    return 0;
  }

  // "a.b.c" for a chain of selections over an identifier that is not a comprehension
  // variable; nullopt otherwise.
  std::optional<std::string> qualified_name(uint32_t id) const {
    const SyntaxNode& node = ast_.node(id);
    if (node.kind == SyntaxKind::kIdent) {
      if (local_slot(ast_.name(node))) return std::nullopt;
      return ast_.name(node);
    }
    if (node.kind != SyntaxKind::kSelect) return std::nullopt;
    std::optional<std::string> prefix = qualified_name(ast_.child(node, 0));
    if (!prefix) return std::nullopt;
    return absl::StrCat(*prefix, ".", ast_.name(node));
  }

  uint32_t select(uint32_t id) {
    const SyntaxNode& node = ast_.node(id);
    if (options_.extra_variables.size() > 0) {
      // Only declared extras can hold dots; the request variables cannot.
      if (const std::optional<std::string> name = qualified_name(id)) {
        if (const std::optional<size_t> slot = program_.variable_slot(*name)) {
          return emit(Op::kVariable, node.offset, static_cast<uint32_t>(*slot));
        }
      }
    }
    const uint32_t operand = compile(ast_.child(node, 0));
    const uint32_t field = constant_index(text_constant(ast_.name(node), false));
    return emit(Op::kSelect, node.offset, operand, field);
  }

  uint32_t aggregate(const SyntaxNode& node) {
    std::vector<uint32_t> items;
    items.reserve(node.child_count);
    bool all_constant = true;
    for (const uint32_t child : ast_.children_of(node)) {
      items.push_back(compile(child));
      if (failed_) return 0;
      all_constant = all_constant && is_constant(items.back());
    }
    const bool is_map = node.kind == SyntaxKind::kMap;
    if (all_constant) {
      // Built once here instead of at every evaluation. A literal that would fail (a
      // repeated key) is left to fail when evaluated: CEL makes it an evaluation error.
      std::vector<Value> keys;
      std::vector<Value> values;
      for (size_t i = 0; i < items.size(); ++i) {
        (is_map && i % 2 == 0 ? keys : values).push_back(constant_of(items[i]));
      }
      const Value folded = is_map ? make_map(keys, values, program_.constant_arena_, node.offset)
                                  : make_list(values, program_.constant_arena_, node.offset);
      if (!folded.is_error()) return constant(folded, node.offset);
    }
    // The parser's bound on nodes keeps every count within a node's 16 bits.
    DECISIOND_CHECK(items.size() <= UINT16_MAX && (!is_map || items.size() % 2 == 0));
    const auto first = static_cast<uint32_t>(program_.operands_.size());
    program_.operands_.insert(program_.operands_.end(), items.begin(), items.end());
    const auto count = static_cast<uint16_t>(is_map ? items.size() / 2 : items.size());
    return emit(is_map ? Op::kCreateMap : Op::kCreateList, node.offset, first, 0, 0, count);
  }

  uint32_t call(const SyntaxNode& node) {
    const std::string& name = ast_.name(node);
    std::span<const uint32_t> args = ast_.children_of(node);
    std::optional<uint32_t> target;
    if (node.has_target) {
      target = args.front();
      args = args.subspan(1);
    }
    if (options_.macros) {
      if (!target && name == "has" && args.size() == 1) return has_macro(args[0], node.offset);
      if (target) {
        if (const std::optional<Op> op = comprehension_op(name, args.size())) {
          return comprehension(*op, name, *target, args, node.offset);
        }
      }
    }
    const FunctionMatch match = find_function(name, target.has_value(), args.size());
    if (match.kind == FunctionMatch::kUnknown) {
      return unresolved(node.offset, absl::StrCat("undeclared reference to '", name, "'"),
                        ErrorCode::kUnboundFunction);
    }
    if (match.kind == FunctionMatch::kWrongArity) {
      return unresolved(node.offset,
                        absl::StrCat("found no matching overload for '", name, "' applied to ",
                                     args.size() + (target ? 1 : 0), " argument(s)"),
                        ErrorCode::kNoMatchingOverload);
    }
    std::array<uint32_t, 3> operands{};
    // The function table's overloads take at most three operands, receiver included.
    DECISIOND_CHECK(args.size() + (target ? 1 : 0) <= operands.size());
    size_t count = 0;
    if (target) operands[count++] = compile(*target);
    for (const uint32_t arg : args) operands[count++] = compile(arg);
    if (failed_) return 0;
    if (match.op == Op::kMatches && is_constant(operands[1]) &&
        constant_of(operands[1]).kind() == Kind::kString) {
      return literal_regex(operands[0], operands[1], node.offset);
    }
    return emit(match.op, node.offset, operands[0], operands[1], operands[2]);
  }

  uint32_t literal_regex(uint32_t text, uint32_t pattern_node, uint32_t offset) {
    const Value& pattern = constant_of(pattern_node);
    const uint32_t pattern_offset = program_.nodes_[pattern_node].offset;
    RE2::Options re2_options;
    re2_options.set_log_errors(false);
    const std::string_view source = pattern.as_text();
    auto regex = std::make_unique<RE2>(re2::StringPiece(source.data(), source.size()), re2_options);
    if (!regex->ok()) {
      fail(pattern_offset, absl::StrCat("invalid regular expression: ", regex->error()));
      return 0;
    }
    program_.regexes_.push_back(std::move(regex));
    program_.literal_regexes_.push_back(LiteralRegex::from_pattern(source));
    return emit(Op::kMatchesRegex, offset, text,
                static_cast<uint32_t>(program_.regexes_.size() - 1));
  }

  uint32_t has_macro(uint32_t arg, uint32_t offset) {
    const SyntaxNode& node = ast_.node(arg);
    if (node.kind != SyntaxKind::kSelect) {
      fail(offset, "invalid argument to has() macro: expected a field selection");
      return 0;
    }
    const uint32_t operand = compile(ast_.child(node, 0));
    const uint32_t field = constant_index(text_constant(ast_.name(node), false));
    return emit(Op::kHasField, node.offset, operand, field);
  }

  static std::optional<Op> comprehension_op(std::string_view name, size_t args) {
    if (args == 2) {
      if (name == "all") return Op::kAll;
      if (name == "exists") return Op::kExists;
      if (name == "exists_one") return Op::kExistsOne;
      if (name == "map") return Op::kMap;
      if (name == "filter") return Op::kFilter;
    }
    if (args == 3 && name == "map") return Op::kMapFiltered;
    return std::nullopt;
  }

  uint32_t comprehension(Op op, std::string_view name, uint32_t target,
                         std::span<const uint32_t> args, uint32_t offset) {
    const SyntaxNode& variable = ast_.node(args[0]);
    if (variable.kind != SyntaxKind::kIdent) {
      fail(variable.offset,
           absl::StrCat(runtime::av(name), "() needs a simple name as its first argument"));
      return 0;
    }
    const uint32_t range = compile(target);
    DECISIOND_CHECK(scopes_.size() < UINT16_MAX);  // nesting is bounded far below (limits.h)
    const auto slot = static_cast<uint16_t>(scopes_.size());
    scopes_.push_back(Scope{ast_.name(variable), slot});
    program_.local_count_ = std::max(program_.local_count_, scopes_.size());
    std::array<uint32_t, 2> steps{};
    DECISIOND_CHECK(args.size() >= 2 && args.size() - 1 <= steps.size());
    for (size_t i = 1; i < args.size(); ++i) steps[i - 1] = compile(args[i]);
    scopes_.pop_back();
    return emit(op, offset, range, steps[0], steps[1], slot);
  }

  const Ast& ast_;
  const CompileOptions& options_;
  Program program_;
  std::vector<Scope> scopes_;
  bool failed_ = false;
  absl::Status error_;
};

absl::StatusOr<Program> check(const Ast& ast, std::string_view source,
                              const CompileOptions& options) {
  return ProgramBuilder(ast, source, options).build();
}

}  // namespace cel
