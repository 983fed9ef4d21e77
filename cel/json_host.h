#pragma once
// JSON documents as CEL values, read in place over a simdjson DOM: the bindings of the
// decisiond-cel tool, the tests and the benchmarks. (The decision request keeps its own
// adapter over its parsed request.) The document must outlive every value read from it.
//
// Numbers: an integer is an int, or a uint above INT64_MAX; any other number is a double
// (simdjson's own classification: 21 is an int, 21.0 and 2.1e1 are doubles).
#include <simdjson.h>

#include <optional>

#include "cel/arena.h"
#include "cel/collections.h"
#include "cel/value.h"

namespace cel {

class JsonList final : public ListValue {
 public:
  explicit JsonList(simdjson::dom::array array) : array_(array) {}
  size_t size() const override { return array_.size(); }
  // simdjson reaches an element by walking from the first, so at() resumes from the last
  // index it was asked for: asking in order (list equality, indexing in a loop) stays
  // linear rather than quadratic.
  Value at(size_t index, Arena& arena) const override;
  void for_each(Visitor visit, Arena& arena) const override;

 private:
  simdjson::dom::array array_;
  // A view lives for one evaluation, in its arena: the cursor is that evaluation's alone.
  mutable simdjson::dom::array::iterator cursor_{};
  mutable size_t cursor_index_ = 0;
  mutable bool cursor_set_ = false;
};

// String keys only: a lookup by any other kind of key finds nothing.
class JsonMap final : public MapValue {
 public:
  explicit JsonMap(simdjson::dom::object object) : object_(object) {}
  size_t size() const override { return object_.size(); }
  std::optional<Value> find(const Value& key, Arena& arena) const override;
  void for_each_key(Visitor visit, Arena& arena) const override;

 private:
  simdjson::dom::object object_;
};

// The element as a value; objects and arrays become views created in arena (error
// kLimitExceeded when it is full).
Value json_value(simdjson::dom::element element, Arena& arena);

}  // namespace cel
