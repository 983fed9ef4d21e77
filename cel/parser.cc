#include "cel/parser.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cel/lexer.h"
#include "cel/limits.h"
#include "cel/literals.h"
#include "cel/source_position.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace cel {
namespace {

// cel-spec reserves these so that the language can grow; they are not identifiers.
// ("in" is one too, lexed as the operator.)
constexpr std::array<std::string_view, 17> kReservedWords = {
    "as",  "break", "const",   "continue",  "else",   "for", "function", "if",   "import",
    "let", "loop",  "package", "namespace", "return", "var", "void",     "while"};

bool is_reserved(std::string_view word) {
  return std::find(kReservedWords.begin(), kReservedWords.end(), word) != kReservedWords.end();
}

bool is_relation(TokenKind kind) {
  switch (kind) {
    case TokenKind::kLess:
    case TokenKind::kLessEqual:
    case TokenKind::kGreater:
    case TokenKind::kGreaterEqual:
    case TokenKind::kEqualEqual:
    case TokenKind::kNotEqual:
    case TokenKind::kIn: return true;
    default: return false;
  }
}

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source), lexer_(source) { advance(); }

  absl::StatusOr<Ast> run() {
    const uint32_t root = expr();
    if (!failed_ && current_.kind != TokenKind::kEnd) unexpected();
    if (failed_) return error_;
    ast_.root = root;
    return std::move(ast_);
  }

 private:
  // Recursion along the grammar: every nested expression (parentheses, arguments,
  // elements, operands of ?:) enters expr().
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) {
      if (++parser_.depth_ > kMaxNestingDepth) {
        parser_.fail(parser_.current_.offset, "expression nests too deeply");
      }
    }
    ~Nesting() { --parser_.depth_; }

   private:
    Parser& parser_;
  };

  void advance() {
    current_ = lexer_.next();
    if (current_.kind == TokenKind::kError) fail(current_.offset, lexer_.error());
  }

  bool at(TokenKind kind) const { return !failed_ && current_.kind == kind; }

  void fail(uint32_t offset, std::string_view message) {
    if (failed_) return;
    failed_ = true;
    error_ = absl::InvalidArgumentError(
        absl::StrCat(position_text(source_, offset), ": syntax error: ", runtime::av(message)));
  }

  void unexpected() {
    if (current_.kind == TokenKind::kEnd) {
      fail(current_.offset, "unexpected end of input");
    } else {
      fail(current_.offset, absl::StrCat("unexpected ", runtime::av(describe(current_.kind))));
    }
  }

  bool expect(TokenKind kind, std::string_view what) {
    if (at(kind)) {
      advance();
      return true;
    }
    if (!failed_) {
      fail(current_.offset, absl::StrCat("expected ", runtime::av(what), ", found ",
                                         runtime::av(describe(current_.kind))));
    }
    return false;
  }

  // Adds a node over children already built. The tree's height is bounded as well as the
  // parser's recursion: a chain of 1,000 additions recurses once here but 1,000 times in
  // the checker and the evaluator.
  uint32_t add(SyntaxKind kind, uint32_t offset, std::initializer_list<uint32_t> children,
               TokenKind op = TokenKind::kEnd, uint32_t index = 0) {
    return add_node(kind, offset, std::vector<uint32_t>(children), op, index);
  }

  uint32_t add_node(SyntaxKind kind, uint32_t offset, const std::vector<uint32_t>& children,
                    TokenKind op, uint32_t index, bool has_target = false) {
    if (failed_) return 0;
    if (ast_.nodes.size() >= kMaxSyntaxNodes) {
      fail(offset, "expression too large");
      return 0;
    }
    uint32_t height = 1;
    for (const uint32_t child : children) {
      DECISIOND_CHECK_MSG(child < heights_.size(), "a syntax node over a child not built yet");
      height = std::max(height, heights_[child] + 1);
    }
    if (height > kMaxNestingDepth) {
      fail(offset, "expression nests too deeply");
      return 0;
    }
    SyntaxNode node;
    node.kind = kind;
    node.op = op;
    node.has_target = has_target;
    node.offset = offset;
    node.index = index;
    node.first_child = static_cast<uint32_t>(ast_.children.size());
    node.child_count = static_cast<uint32_t>(children.size());
    ast_.children.insert(ast_.children.end(), children.begin(), children.end());
    ast_.nodes.push_back(node);
    heights_.push_back(height);
    return static_cast<uint32_t>(ast_.nodes.size() - 1);
  }

  uint32_t name_index(std::string_view name) {
    ast_.names.emplace_back(name);
    return static_cast<uint32_t>(ast_.names.size() - 1);
  }

  uint32_t add_literal(Literal literal, uint32_t offset) {
    ast_.literals.push_back(std::move(literal));
    return add(SyntaxKind::kLiteral, offset, {}, TokenKind::kEnd,
               static_cast<uint32_t>(ast_.literals.size() - 1));
  }

  uint32_t expr() {
    const Nesting nesting(*this);
    const uint32_t condition = logical_or();
    if (!at(TokenKind::kQuestion)) return condition;
    const uint32_t offset = current_.offset;
    advance();
    const uint32_t then = logical_or();
    expect(TokenKind::kColon, "':' of the conditional");
    const uint32_t otherwise = expr();
    return add(SyntaxKind::kConditional, offset, {condition, then, otherwise});
  }

  uint32_t logical_or() {
    uint32_t left = logical_and();
    while (at(TokenKind::kOrOr)) {
      const Token op = current_;
      advance();
      left = add(SyntaxKind::kBinary, op.offset, {left, logical_and()}, op.kind);
    }
    return left;
  }

  uint32_t logical_and() {
    uint32_t left = relation();
    while (at(TokenKind::kAndAnd)) {
      const Token op = current_;
      advance();
      left = add(SyntaxKind::kBinary, op.offset, {left, relation()}, op.kind);
    }
    return left;
  }

  uint32_t relation() {
    uint32_t left = sum();
    while (!failed_ && is_relation(current_.kind)) {
      const Token op = current_;
      advance();
      left = add(SyntaxKind::kBinary, op.offset, {left, sum()}, op.kind);
    }
    return left;
  }

  uint32_t sum() {
    uint32_t left = product();
    while (at(TokenKind::kPlus) || at(TokenKind::kMinus)) {
      const Token op = current_;
      advance();
      left = add(SyntaxKind::kBinary, op.offset, {left, product()}, op.kind);
    }
    return left;
  }

  uint32_t product() {
    uint32_t left = unary();
    while (at(TokenKind::kStar) || at(TokenKind::kSlash) || at(TokenKind::kPercent)) {
      const Token op = current_;
      advance();
      left = add(SyntaxKind::kBinary, op.offset, {left, unary()}, op.kind);
    }
    return left;
  }

  uint32_t unary() {
    if (!at(TokenKind::kExclamation) && !at(TokenKind::kMinus)) return member();
    const Token op = current_;
    int count = 0;
    while (at(op.kind)) {
      ++count;
      advance();
    }
    if (op.kind == TokenKind::kMinus && count == 1 &&
        (at(TokenKind::kInt) || at(TokenKind::kDouble))) {
      return member_suffixes(number(/*negative=*/true, op.offset));
    }
    const uint32_t operand = member();
    if (count % 2 == 0) return operand;
    return add(SyntaxKind::kUnary, op.offset, {operand}, op.kind);
  }

  uint32_t member() { return member_suffixes(primary()); }

  uint32_t member_suffixes(uint32_t operand) {
    while (!failed_) {
      if (at(TokenKind::kDot)) {
        advance();
        const Token field = current_;
        if (at(TokenKind::kQuestion)) {
          fail(field.offset, "optional field selection '.?' is not supported");
        } else if (at(TokenKind::kIdent)) {
          advance();
          const uint32_t name = name_index(field.text);
          if (at(TokenKind::kLeftParen)) {
            std::vector<uint32_t> children{operand};
            arguments(children);
            operand = add_node(SyntaxKind::kCall, field.offset, children, TokenKind::kEnd, name,
                               /*has_target=*/true);
          } else {
            operand = add(SyntaxKind::kSelect, field.offset, {operand}, TokenKind::kEnd, name);
          }
        } else if (at(TokenKind::kQuotedIdent)) {
          advance();
          const uint32_t name = name_index(field.text.substr(1, field.text.size() - 2));
          operand = add(SyntaxKind::kSelect, field.offset, {operand}, TokenKind::kEnd, name);
        } else {
          expect(TokenKind::kIdent, "a field or function name after '.'");
        }
      } else if (at(TokenKind::kLeftBracket)) {
        const uint32_t offset = current_.offset;
        advance();
        if (at(TokenKind::kQuestion)) fail(current_.offset, "optional index '[?' is not supported");
        const uint32_t index = expr();
        expect(TokenKind::kRightBracket, "']'");
        operand = add(SyntaxKind::kIndex, offset, {operand, index});
      } else {
        break;
      }
    }
    return operand;
  }

  // "(" [expr {"," expr}] ")": appends the arguments to children.
  void arguments(std::vector<uint32_t>& children) {
    advance();  // (
    if (at(TokenKind::kRightParen)) {
      advance();
      return;
    }
    while (!failed_) {
      children.push_back(expr());
      if (at(TokenKind::kComma)) {
        advance();
        continue;
      }
      expect(TokenKind::kRightParen, "',' or ')' in the arguments");
      return;
    }
  }

  uint32_t primary() {
    const Token token = current_;
    if (failed_) return 0;
    switch (token.kind) {
      case TokenKind::kDot: {  // ".name": a name from the root namespace
        advance();
        if (!at(TokenKind::kIdent)) {
          expect(TokenKind::kIdent, "a name after a leading '.'");
          return 0;
        }
        return identifier_or_call();
      }
      case TokenKind::kIdent: return identifier_or_call();
      case TokenKind::kLeftParen: {
        advance();
        const uint32_t inner = expr();
        expect(TokenKind::kRightParen, "')'");
        return inner;
      }
      case TokenKind::kLeftBracket: return list();
      case TokenKind::kLeftBrace: return map();
      case TokenKind::kInt:
      case TokenKind::kUint:
      case TokenKind::kDouble: return number(/*negative=*/false, token.offset);
      case TokenKind::kString:
      case TokenKind::kBytes: return quoted();
      case TokenKind::kTrue:
      case TokenKind::kFalse: {
        advance();
        Literal literal;
        literal.kind = Literal::Kind::kBool;
        literal.b = token.kind == TokenKind::kTrue;
        return add_literal(std::move(literal), token.offset);
      }
      case TokenKind::kNull: advance(); return add_literal(Literal{}, token.offset);
      default: unexpected(); return 0;
    }
  }

  uint32_t identifier_or_call() {
    const Token token = current_;
    if (is_reserved(token.text)) {
      fail(token.offset, absl::StrCat("reserved identifier '", runtime::av(token.text), "'"));
      return 0;
    }
    advance();
    const uint32_t name = name_index(token.text);
    if (at(TokenKind::kLeftParen)) {
      std::vector<uint32_t> children;
      arguments(children);
      return add_node(SyntaxKind::kCall, token.offset, children, TokenKind::kEnd, name);
    }
    if (at(TokenKind::kLeftBrace)) {
      fail(current_.offset, "message construction is not supported");
      return 0;
    }
    return add(SyntaxKind::kIdent, token.offset, {}, TokenKind::kEnd, name);
  }

  uint32_t list() {
    const uint32_t offset = current_.offset;
    advance();  // [
    std::vector<uint32_t> elements;
    while (!failed_ && !at(TokenKind::kRightBracket)) {
      if (at(TokenKind::kQuestion)) {
        fail(current_.offset, "optional list element '?' is not supported");
      }
      elements.push_back(expr());
      if (!at(TokenKind::kComma)) break;
      advance();
    }
    expect(TokenKind::kRightBracket, "',' or ']' in the list");
    return add_node(SyntaxKind::kList, offset, elements, TokenKind::kEnd, 0);
  }

  uint32_t map() {
    const uint32_t offset = current_.offset;
    advance();  // {
    std::vector<uint32_t> entries;
    while (!failed_ && !at(TokenKind::kRightBrace)) {
      if (at(TokenKind::kQuestion)) {
        fail(current_.offset, "optional map entry '?' is not supported");
      }
      entries.push_back(expr());
      expect(TokenKind::kColon, "':' after the map key");
      entries.push_back(expr());
      if (!at(TokenKind::kComma)) break;
      advance();
    }
    expect(TokenKind::kRightBrace, "',' or '}' in the map");
    return add_node(SyntaxKind::kMap, offset, entries, TokenKind::kEnd, 0);
  }

  // The number at current_; negative when a single '-' preceded it (at offset).
  uint32_t number(bool negative, uint32_t offset) {
    const Token token = current_;
    advance();
    Literal literal;
    if (token.kind == TokenKind::kDouble) {
      const std::optional<double> value = double_literal(token.text);
      if (!value) {
        fail(token.offset, "double literal out of range");
        return 0;
      }
      literal.kind = Literal::Kind::kDouble;
      literal.d = negative ? -*value : *value;
      return add_literal(std::move(literal), offset);
    }
    const std::optional<uint64_t> magnitude = integer_magnitude(token.text);
    constexpr uint64_t kIntMax = std::numeric_limits<int64_t>::max();
    if (token.kind == TokenKind::kUint) {
      if (!magnitude) {
        fail(token.offset, "uint literal out of range");
        return 0;
      }
      literal.kind = Literal::Kind::kUint;
      literal.u = *magnitude;
      return add_literal(std::move(literal), offset);
    }
    if (!magnitude || *magnitude > kIntMax + (negative ? 1 : 0)) {
      fail(offset, "int literal out of range");
      return 0;
    }
    literal.kind = Literal::Kind::kInt;
    // Two's complement: -(2^63) has no positive counterpart, so negate in unsigned.
    literal.i = negative ? static_cast<int64_t>(0 - *magnitude) : static_cast<int64_t>(*magnitude);
    return add_literal(std::move(literal), offset);
  }

  uint32_t quoted() {
    const Token token = current_;
    advance();
    Literal literal;
    literal.kind = token.kind == TokenKind::kBytes ? Literal::Kind::kBytes : Literal::Kind::kString;
    LiteralError error;
    if (!decode_quoted(token.text, literal.text, error)) {
      fail(token.offset + static_cast<uint32_t>(error.offset), error.message);
      return 0;
    }
    return add_literal(std::move(literal), token.offset);
  }

  std::string_view source_;
  Lexer lexer_;
  Token current_;
  Ast ast_;
  std::vector<uint32_t> heights_;  // per node: height of its subtree
  uint32_t depth_ = 0;
  bool failed_ = false;
  absl::Status error_;
};

}  // namespace

absl::StatusOr<Ast> parse(std::string_view source) { return Parser(source).run(); }

}  // namespace cel
