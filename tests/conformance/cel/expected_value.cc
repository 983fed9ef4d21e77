#include "tests/conformance/cel/expected_value.h"

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/charconv.h"
#include "absl/strings/str_cat.h"
#include "cel/arena_collections.h"
#include "cel/collections.h"
#include "runtime/absl_view.h"

namespace conformance {
namespace {

using cel::Arena;
using cel::Kind;
using cel::TypeName;
using cel::Value;

absl::Status bad(std::string_view what, std::string_view text) {
  return absl::InvalidArgumentError(
      absl::StrCat("bad ", runtime::av(what), ": '", runtime::av(text), "'"));
}

template <typename T>
absl::StatusOr<T> integer(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return bad("integer", text);
  return value;
}

// Text-format doubles: numbers, inf, -inf, Infinity, nan.
absl::StatusOr<double> floating(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  double value = 0;
  if (text == "inf" || text == "Infinity" || text == "infinity") {
    value = HUGE_VAL;
  } else if (text == "nan" || text == "NaN") {
    value = std::nan("");
  } else {
    const char* end = text.data() + text.size();
    const auto result = absl::from_chars(text.data(), end, value);
    if (result.ptr != end) return bad("double", text);
  }
  return negative ? -value : value;
}

absl::StatusOr<TypeName> type_named(std::string_view name) {
  constexpr TypeName kTypes[] = {
      TypeName::kNullType, TypeName::kBool,  TypeName::kInt,  TypeName::kUint, TypeName::kDouble,
      TypeName::kString,   TypeName::kBytes, TypeName::kList, TypeName::kMap,  TypeName::kType};
  for (const TypeName type : kTypes) {
    if (cel::type_name(type) == name) return type;
  }
  return bad("type name", name);
}

absl::StatusOr<Value> list_from_text(const TextMessage& list, Arena& arena) {
  std::vector<Value> items;
  for (const TextField* item : list.find_all("values")) {
    absl::StatusOr<Value> value = value_from_text(item->message, arena);
    if (!value.ok()) return value.status();
    items.push_back(*value);
  }
  return cel::make_list(items, arena, 0);
}

absl::StatusOr<Value> map_from_text(const TextMessage& map, Arena& arena) {
  std::vector<Value> keys;
  std::vector<Value> values;
  for (const TextField* entry : map.find_all("entries")) {
    const TextField* key = entry->message.find("key");
    const TextField* value = entry->message.find("value");
    if (key == nullptr || value == nullptr) return bad("map entry", "");
    absl::StatusOr<Value> k = value_from_text(key->message, arena);
    absl::StatusOr<Value> v = value_from_text(value->message, arena);
    if (!k.ok()) return k.status();
    if (!v.ok()) return v.status();
    keys.push_back(*k);
    values.push_back(*v);
  }
  const Value built = cel::make_map(keys, values, arena, 0);
  if (built.is_error()) return bad("map", cel::error_message(built.error_code()));
  return built;
}

}  // namespace

absl::StatusOr<Value> value_from_text(const TextMessage& message, Arena& arena) {
  if (message.fields.empty()) return bad("value", "empty");
  const TextField& field = message.fields.front();
  const std::string_view text = field.scalar;
  if (field.name == "null_value") return Value::null();
  if (field.name == "bool_value") return Value::boolean(text == "true");
  if (field.name == "int64_value") {
    absl::StatusOr<int64_t> i = integer<int64_t>(text);
    if (!i.ok()) return i.status();
    return Value::integer(*i);
  }
  if (field.name == "uint64_value") {
    absl::StatusOr<uint64_t> u = integer<uint64_t>(text);
    if (!u.ok()) return u.status();
    return Value::unsigned_integer(*u);
  }
  if (field.name == "double_value") {
    absl::StatusOr<double> d = floating(text);
    if (!d.ok()) return d.status();
    return Value::floating(*d);
  }
  if (field.name == "string_value") return Value::string(text);
  if (field.name == "bytes_value") return Value::bytes(text);
  if (field.name == "type_value") {
    absl::StatusOr<TypeName> type = type_named(text);
    if (!type.ok()) return type.status();
    return Value::type(*type);
  }
  if (field.name == "list_value") return list_from_text(field.message, arena);
  if (field.name == "map_value") return map_from_text(field.message, arena);
  return bad("value kind", field.name);
}

bool same_value(const Value& actual, const Value& expected, Arena& arena) {
  if (actual.kind() != expected.kind()) return false;
  switch (actual.kind()) {
    case Kind::kNull: return true;
    case Kind::kBool: return actual.as_bool() == expected.as_bool();
    case Kind::kInt: return actual.as_int() == expected.as_int();
    case Kind::kUint: return actual.as_uint() == expected.as_uint();
    case Kind::kDouble: {
      const double a = actual.as_double();
      const double e = expected.as_double();
      if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
      return a == e && std::signbit(a) == std::signbit(e);
    }
    case Kind::kString:
    case Kind::kBytes: return actual.as_text() == expected.as_text();
    case Kind::kType: return actual.as_type() == expected.as_type();
    case Kind::kList: {
      const auto& a = actual.as_list();
      const auto& e = expected.as_list();
      if (a.size() != e.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        if (!same_value(a.at(i, arena), e.at(i, arena), arena)) return false;
      }
      return true;
    }
    case Kind::kMap: {
      const auto& a = actual.as_map();
      const auto& e = expected.as_map();
      if (a.size() != e.size()) return false;
      bool same = true;
      e.for_each_key(
          [&](const Value& key) {
            const std::optional<Value> mine = a.find(key, arena);
            same = mine && same_value(*mine, *e.find(key, arena), arena);
            return same;
          },
          arena);
      return same;
    }
    case Kind::kError: return false;
  }
  return false;
}

}  // namespace conformance
