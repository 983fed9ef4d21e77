#include "cel/arena_collections.h"

#include <algorithm>

namespace cel {

void ListValue::for_each(Visitor visit, Arena& arena) const {
  const size_t count = size();
  for (size_t i = 0; i < count; ++i) {
    if (!visit(at(i, arena))) return;
  }
}

void ArenaList::for_each(Visitor visit, Arena&) const {
  for (size_t i = 0; i < size_; ++i) {
    if (!visit(items_[i])) return;
  }
}

bool same_map_key(const Value& a, const Value& b) {
  if (a.kind() == Kind::kInt && b.kind() == Kind::kUint) {
    return a.as_int() >= 0 && static_cast<uint64_t>(a.as_int()) == b.as_uint();
  }
  if (a.kind() == Kind::kUint && b.kind() == Kind::kInt) return same_map_key(b, a);
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::kNull: return true;
    case Kind::kBool: return a.as_bool() == b.as_bool();
    case Kind::kInt: return a.as_int() == b.as_int();
    case Kind::kUint: return a.as_uint() == b.as_uint();
    case Kind::kString: return a.as_text() == b.as_text();
    default: return false;
  }
}

std::optional<Value> ArenaMap::find(const Value& key, Arena&) const {
  for (size_t i = 0; i < size_; ++i) {
    if (same_map_key(keys_[i], key)) return values_[i];
  }
  return std::nullopt;
}

void ArenaMap::for_each_key(Visitor visit, Arena&) const {
  for (size_t i = 0; i < size_; ++i) {
    if (!visit(keys_[i])) return;
  }
}

Value make_list(std::span<const Value> items, Arena& arena, uint32_t source_offset) {
  Value* copy = arena.allocate_array<Value>(items.size());
  if (copy == nullptr && !items.empty()) {
    return Value::error(ErrorCode::kLimitExceeded, source_offset);
  }
  std::copy(items.begin(), items.end(), copy);
  return wrap_list(copy, items.size(), arena, source_offset);
}

Value wrap_list(const Value* items, size_t size, Arena& arena, uint32_t source_offset) {
  const ArenaList* list = arena.create<ArenaList>(items, size);
  if (list == nullptr) return Value::error(ErrorCode::kLimitExceeded, source_offset);
  return Value::list(list);
}

Value make_map(std::span<const Value> keys, std::span<const Value> values, Arena& arena,
               uint32_t source_offset) {
  DECISIOND_CHECK_MSG(keys.size() == values.size(), "a map's keys and values are not parallel");
  for (size_t i = 0; i < keys.size(); ++i) {
    const Kind kind = keys[i].kind();
    if (kind != Kind::kBool && kind != Kind::kInt && kind != Kind::kUint && kind != Kind::kString) {
      return Value::error(ErrorCode::kUnsupportedKeyType, source_offset);
    }
    for (size_t j = 0; j < i; ++j) {
      if (same_map_key(keys[j], keys[i])) {
        return Value::error(ErrorCode::kRepeatedKey, source_offset);
      }
    }
  }
  Value* key_copy = arena.allocate_array<Value>(keys.size());
  Value* value_copy = arena.allocate_array<Value>(values.size());
  if (!keys.empty() && (key_copy == nullptr || value_copy == nullptr)) {
    return Value::error(ErrorCode::kLimitExceeded, source_offset);
  }
  std::copy(keys.begin(), keys.end(), key_copy);
  std::copy(values.begin(), values.end(), value_copy);
  const ArenaMap* map = arena.create<ArenaMap>(key_copy, value_copy, keys.size());
  if (map == nullptr) return Value::error(ErrorCode::kLimitExceeded, source_offset);
  return Value::map(map);
}

}  // namespace cel
