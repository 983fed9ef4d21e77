#include "cel/json_host.h"

namespace cel {

Value json_value(simdjson::dom::element element, Arena& arena) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::ARRAY: {
      const JsonList* list = arena.create<JsonList>(element.get_array().value_unsafe());
      return list == nullptr ? Value::error(ErrorCode::kLimitExceeded, 0) : Value::list(list);
    }
    case element_type::OBJECT: {
      const JsonMap* map = arena.create<JsonMap>(element.get_object().value_unsafe());
      return map == nullptr ? Value::error(ErrorCode::kLimitExceeded, 0) : Value::map(map);
    }
    case element_type::INT64: return Value::integer(element.get_int64().value_unsafe());
    case element_type::UINT64: return Value::unsigned_integer(element.get_uint64().value_unsafe());
    case element_type::DOUBLE: return Value::floating(element.get_double().value_unsafe());
    case element_type::STRING: return Value::string(element.get_string().value_unsafe());
    case element_type::BOOL: return Value::boolean(element.get_bool().value_unsafe());
    case element_type::NULL_VALUE: return Value::null();
  }
  return Value::null();
}

Value JsonList::at(size_t index, Arena& arena) const {
  if (!cursor_set_ || index < cursor_index_) {
    cursor_ = array_.begin();
    cursor_index_ = 0;
    cursor_set_ = true;
  }
  for (; cursor_index_ < index; ++cursor_index_) ++cursor_;
  return json_value(*cursor_, arena);
}

void JsonList::for_each(Visitor visit, Arena& arena) const {
  for (const simdjson::dom::element element : array_) {
    if (!visit(json_value(element, arena))) return;
  }
}

std::optional<Value> JsonMap::find(const Value& key, Arena& arena) const {
  if (key.kind() != Kind::kString) return std::nullopt;
  simdjson::dom::element element;
  if (object_.at_key(key.as_text()).get(element) != simdjson::SUCCESS) return std::nullopt;
  return json_value(element, arena);
}

void JsonMap::for_each_key(Visitor visit, Arena&) const {
  for (const simdjson::dom::key_value_pair field : object_) {
    if (!visit(Value::string(field.key))) return;
  }
}

}  // namespace cel
