#include "cel/arithmetic.h"

#include <cstring>
#include <limits>

#include "cel/arena_collections.h"
#include "cel/collections.h"
#include "cel/error_values.h"

namespace cel {
namespace {

constexpr int64_t kIntMin = std::numeric_limits<int64_t>::min();

bool same_kind(const Value& a, const Value& b, Kind kind) {
  return a.kind() == kind && b.kind() == kind;
}

Value concatenate_text(const Value& a, const Value& b, Arena& arena, uint32_t offset) {
  const std::string_view left = a.as_text();
  const std::string_view right = b.as_text();
  const size_t size = left.size() + right.size();
  char* joined = arena.allocate_array<char>(size);
  if (joined == nullptr && size > 0) return Value::error(ErrorCode::kLimitExceeded, offset);
  if (!left.empty()) std::memcpy(joined, left.data(), left.size());
  if (!right.empty()) std::memcpy(joined + left.size(), right.data(), right.size());
  const std::string_view text(joined, size);
  return a.kind() == Kind::kString ? Value::string(text) : Value::bytes(text);
}

Value concatenate_lists(const ListValue& a, const ListValue& b, Arena& arena, uint32_t offset) {
  const size_t size = a.size() + b.size();
  Value* items = arena.allocate_array<Value>(size);
  if (items == nullptr && size > 0) return Value::error(ErrorCode::kLimitExceeded, offset);
  size_t at = 0;
  const auto append = [&](const Value& item) {
    items[at++] = item;
    return true;
  };
  a.for_each(append, arena);
  b.for_each(append, arena);
  return wrap_list(items, size, arena, offset);
}

}  // namespace

Value add(const Value& a, const Value& b, Arena& arena, uint32_t offset) {
  if (a.kind() != b.kind()) return no_overload(offset);
  switch (a.kind()) {
    case Kind::kInt: {
      int64_t sum;
      if (__builtin_add_overflow(a.as_int(), b.as_int(), &sum)) return overflow(offset);
      return Value::integer(sum);
    }
    case Kind::kUint: {
      uint64_t sum;
      if (__builtin_add_overflow(a.as_uint(), b.as_uint(), &sum)) return overflow(offset);
      return Value::unsigned_integer(sum);
    }
    case Kind::kDouble: return Value::floating(a.as_double() + b.as_double());
    case Kind::kString:
    case Kind::kBytes: return concatenate_text(a, b, arena, offset);
    case Kind::kList: return concatenate_lists(a.as_list(), b.as_list(), arena, offset);
    default: return no_overload(offset);
  }
}

Value subtract(const Value& a, const Value& b, uint32_t offset) {
  if (same_kind(a, b, Kind::kInt)) {
    int64_t difference;
    if (__builtin_sub_overflow(a.as_int(), b.as_int(), &difference)) return overflow(offset);
    return Value::integer(difference);
  }
  if (same_kind(a, b, Kind::kUint)) {
    uint64_t difference;
    if (__builtin_sub_overflow(a.as_uint(), b.as_uint(), &difference)) return overflow(offset);
    return Value::unsigned_integer(difference);
  }
  if (same_kind(a, b, Kind::kDouble)) return Value::floating(a.as_double() - b.as_double());
  return no_overload(offset);
}

Value multiply(const Value& a, const Value& b, uint32_t offset) {
  if (same_kind(a, b, Kind::kInt)) {
    int64_t product;
    if (__builtin_mul_overflow(a.as_int(), b.as_int(), &product)) return overflow(offset);
    return Value::integer(product);
  }
  if (same_kind(a, b, Kind::kUint)) {
    uint64_t product;
    if (__builtin_mul_overflow(a.as_uint(), b.as_uint(), &product)) return overflow(offset);
    return Value::unsigned_integer(product);
  }
  if (same_kind(a, b, Kind::kDouble)) return Value::floating(a.as_double() * b.as_double());
  return no_overload(offset);
}

Value divide(const Value& a, const Value& b, uint32_t offset) {
  if (same_kind(a, b, Kind::kInt)) {
    if (b.as_int() == 0) return Value::error(ErrorCode::kDivideByZero, offset);
    if (a.as_int() == kIntMin && b.as_int() == -1) return overflow(offset);
    return Value::integer(a.as_int() / b.as_int());
  }
  if (same_kind(a, b, Kind::kUint)) {
    if (b.as_uint() == 0) return Value::error(ErrorCode::kDivideByZero, offset);
    return Value::unsigned_integer(a.as_uint() / b.as_uint());
  }
  if (same_kind(a, b, Kind::kDouble)) return Value::floating(a.as_double() / b.as_double());
  return no_overload(offset);
}

Value modulo(const Value& a, const Value& b, uint32_t offset) {
  if (same_kind(a, b, Kind::kInt)) {
    if (b.as_int() == 0) return Value::error(ErrorCode::kModulusByZero, offset);
    // INT64_MIN % -1 traps on x86; cel-go and cel-cpp report it as overflow too.
    if (a.as_int() == kIntMin && b.as_int() == -1) return overflow(offset);
    return Value::integer(a.as_int() % b.as_int());
  }
  if (same_kind(a, b, Kind::kUint)) {
    if (b.as_uint() == 0) return Value::error(ErrorCode::kModulusByZero, offset);
    return Value::unsigned_integer(a.as_uint() % b.as_uint());
  }
  return no_overload(offset);
}

Value negate(const Value& a, uint32_t offset) {
  if (a.kind() == Kind::kInt) {
    if (a.as_int() == kIntMin) return overflow(offset);
    return Value::integer(-a.as_int());
  }
  if (a.kind() == Kind::kDouble) return Value::floating(-a.as_double());
  return no_overload(offset);
}

}  // namespace cel
