#include "cel/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cel/collections.h"
#include "cel/error_values.h"

namespace cel {
namespace {

template <typename T>
Ordering order(T a, T b) {
  if (a < b) return Ordering::kLess;
  if (b < a) return Ordering::kGreater;
  return Ordering::kEqual;
}

Ordering order_doubles(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return Ordering::kUnordered;
  return order(a, b);
}

Ordering order_int_uint(int64_t i, uint64_t u) {
  if (i < 0) return Ordering::kLess;
  return order(static_cast<uint64_t>(i), u);
}

Ordering order_int_double(int64_t i, double d) {
  if (std::isnan(d)) return Ordering::kUnordered;
  if (d < -kTwoTo63) return Ordering::kGreater;
  if (d > kTwoTo63) return Ordering::kLess;
  return order_doubles(static_cast<double>(i), d);
}

Ordering order_uint_double(uint64_t u, double d) {
  if (std::isnan(d)) return Ordering::kUnordered;
  if (d < 0) return Ordering::kGreater;
  if (d > kTwoTo64) return Ordering::kLess;
  return order_doubles(static_cast<double>(u), d);
}

Ordering reverse(Ordering o) {
  if (o == Ordering::kLess) return Ordering::kGreater;
  if (o == Ordering::kGreater) return Ordering::kLess;
  return o;
}

Ordering order_numbers(const Value& a, const Value& b) {
  switch (a.kind()) {
    case Kind::kInt:
      if (b.kind() == Kind::kInt) return order(a.as_int(), b.as_int());
      if (b.kind() == Kind::kUint) return order_int_uint(a.as_int(), b.as_uint());
      return order_int_double(a.as_int(), b.as_double());
    case Kind::kUint:
      if (b.kind() == Kind::kUint) return order(a.as_uint(), b.as_uint());
      if (b.kind() == Kind::kInt) return reverse(order_int_uint(b.as_int(), a.as_uint()));
      return order_uint_double(a.as_uint(), b.as_double());
    default:
      if (b.kind() == Kind::kDouble) return order_doubles(a.as_double(), b.as_double());
      if (b.kind() == Kind::kInt) return reverse(order_int_double(b.as_int(), a.as_double()));
      return reverse(order_uint_double(b.as_uint(), a.as_double()));
  }
}

bool lists_equal(const ListValue& a, const ListValue& b, Arena& arena, WorkMeter& work) {
  if (a.size() != b.size()) return false;
  size_t index = 0;
  bool equal = true;
  a.for_each(
      [&](const Value& item) {
        equal = values_equal(item, b.at(index++, arena), arena, work);
        return equal;
      },
      arena);
  return equal;
}

bool maps_equal(const MapValue& a, const MapValue& b, Arena& arena, WorkMeter& work) {
  if (a.size() != b.size()) return false;
  bool equal = true;
  a.for_each_key(
      [&](const Value& key) {
        // Two look-ups, each a scan of its map's keys.
        if (!work.charge(1 + a.size() + b.size())) {
          equal = false;
          return false;
        }
        const std::optional<Value> mine = a.find(key, arena);
        const std::optional<Value> theirs = b.find(key, arena);
        equal = mine && theirs && values_equal(*mine, *theirs, arena, work);
        return equal;
      },
      arena);
  return equal;
}

}  // namespace

bool is_number(const Value& value) {
  return value.kind() == Kind::kInt || value.kind() == Kind::kUint || value.kind() == Kind::kDouble;
}

bool values_equal(const Value& a, const Value& b, Arena& arena, WorkMeter& work) {
  if (!work.charge(1)) return false;
  if (is_number(a) && is_number(b)) return order_numbers(a, b) == Ordering::kEqual;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::kNull: return true;
    case Kind::kBool: return a.as_bool() == b.as_bool();
    case Kind::kString:
    case Kind::kBytes:
      return work.charge(std::min(a.as_text().size(), b.as_text().size())) && a.as_text() == b.as_text();
    case Kind::kList: return lists_equal(a.as_list(), b.as_list(), arena, work);
    case Kind::kMap: return maps_equal(a.as_map(), b.as_map(), arena, work);
    case Kind::kType: return a.as_type() == b.as_type();
    default: return false;  // errors equal nothing; the evaluator never asks
  }
}

Ordering compare(const Value& a, const Value& b) {
  if (is_number(a) && is_number(b)) return order_numbers(a, b);
  if (a.kind() != b.kind()) return Ordering::kNoOverload;
  switch (a.kind()) {
    case Kind::kBool: return order(a.as_bool(), b.as_bool());
    case Kind::kString:
    case Kind::kBytes: {
      const int c = a.as_text().compare(b.as_text());
      return c < 0 ? Ordering::kLess : c > 0 ? Ordering::kGreater : Ordering::kEqual;
    }
    default: return Ordering::kNoOverload;
  }
}

}  // namespace cel
