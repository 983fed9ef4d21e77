#pragma once
// The syntax tree the parser produces and the checker consumes: a flat arena of nodes that
// refer to each other by index, children stored contiguously. Macros are still plain calls
// here; the checker expands them.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cel/token.h"
#include "runtime/check.h"

namespace cel {

enum class SyntaxKind : uint8_t {
  kLiteral,      // literal: index into Ast::literals
  kIdent,        // name
  kSelect,       // child 0 . name
  kCall,         // name(children...); with has_target, child 0 is the receiver
  kIndex,        // child 0 [ child 1 ]
  kUnary,        // op child 0 (op: kExclamation or kMinus)
  kBinary,       // child 0 op child 1 (arithmetic, relations, in, &&, ||)
  kConditional,  // child 0 ? child 1 : child 2
  kList,         // [children...]
  kMap,          // {child 0: child 1, child 2: child 3, ...}
};

struct SyntaxNode {
  SyntaxKind kind = SyntaxKind::kLiteral;
  TokenKind op = TokenKind::kEnd;  // kUnary, kBinary
  bool has_target = false;         // kCall
  uint32_t offset = 0;             // where errors about this node point
  uint32_t index = 0;              // kIdent/kSelect/kCall: Ast::names; kLiteral: Ast::literals
  uint32_t first_child = 0;        // into Ast::children
  uint32_t child_count = 0;
};

struct Literal {
  enum class Kind : uint8_t { kNull, kBool, kInt, kUint, kDouble, kString, kBytes };
  Kind kind = Kind::kNull;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string text;  // decoded string or bytes
};

struct Ast {
  std::vector<SyntaxNode> nodes;
  std::vector<uint32_t> children;
  std::vector<std::string> names;
  std::vector<Literal> literals;
  uint32_t root = 0;

  // The checker's reads of the parser's output: indexes the parser wrote, checked.
  const SyntaxNode& node(uint32_t id) const {
    DECISIOND_CHECK(id < nodes.size());
    return nodes[id];
  }
  std::span<const uint32_t> children_of(const SyntaxNode& n) const {
    DECISIOND_CHECK(size_t{n.first_child} + n.child_count <= children.size());
    return {children.data() + n.first_child, n.child_count};
  }
  uint32_t child(const SyntaxNode& n, uint32_t i) const {
    DECISIOND_CHECK(i < n.child_count && size_t{n.first_child} + i < children.size());
    return children[n.first_child + i];
  }
  const std::string& name(const SyntaxNode& n) const {
    DECISIOND_CHECK(n.index < names.size());
    return names[n.index];
  }
  const Literal& literal(const SyntaxNode& n) const {
    DECISIOND_CHECK(n.kind == SyntaxKind::kLiteral && n.index < literals.size());
    return literals[n.index];
  }
};

}  // namespace cel
