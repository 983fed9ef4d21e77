#pragma once
// Lists and maps the evaluator builds (literals, macro results, concatenations) and the
// program keeps as constants: arrays of values in an arena, read through collections.h.
// Lookups scan linearly: literal maps and lists in targeting rules are small, and a scan
// of a few entries beats hashing (measured in perf/cel_bench.cc).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "cel/arena.h"
#include "cel/collections.h"
#include "cel/value.h"
#include "runtime/check.h"

namespace cel {

class ArenaList final : public ListValue {
 public:
  ArenaList(const Value* items, size_t size) : items_(items), size_(size) {
    DECISIOND_CHECK(items != nullptr || size == 0);
  }
  size_t size() const override { return size_; }
  Value at(size_t index, Arena&) const override {
    DECISIOND_CHECK(index < size_);
    return items_[index];
  }
  void for_each(Visitor visit, Arena& arena) const override;

 private:
  const Value* items_;
  size_t size_;
};

class ArenaMap final : public MapValue {
 public:
  ArenaMap(const Value* keys, const Value* values, size_t size) : keys_(keys), values_(values), size_(size) {
    DECISIOND_CHECK((keys != nullptr && values != nullptr) || size == 0);
  }
  size_t size() const override { return size_; }
  std::optional<Value> find(const Value& key, Arena& arena) const override;
  void for_each_key(Visitor visit, Arena& arena) const override;

 private:
  const Value* keys_;
  const Value* values_;
  size_t size_;
};

// CEL map-key equality: same kind and value, except that int and uint keys of equal value
// are one key.
bool same_map_key(const Value& a, const Value& b);

// A list holding a copy of items; error kLimitExceeded (at source_offset) when the arena is
// full.
Value make_list(std::span<const Value> items, Arena& arena, uint32_t source_offset);
// A list over items already in the arena (a macro's result), without copying them.
Value wrap_list(const Value* items, size_t size, Arena& arena, uint32_t source_offset);
// A map from parallel keys and values. Errors (at source_offset): a key that is not bool,
// int, uint or string (kUnsupportedKeyType), the same key twice (kRepeatedKey), arena full.
Value make_map(std::span<const Value> keys, std::span<const Value> values, Arena& arena,
               uint32_t source_offset);

}  // namespace cel
