#include "tests/integration/json_body.h"

namespace integration {

JsonBody::JsonBody(std::string_view text) : parser_(std::make_unique<simdjson::dom::parser>()) {
  const simdjson::error_code code = parser_->parse(text.data(), text.size()).get(root_);
  if (code != simdjson::SUCCESS) error_ = simdjson::error_message(code);
}

std::optional<simdjson::dom::element> member(simdjson::dom::element object, std::string_view key) {
  simdjson::dom::element value;
  if (object[key].get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

std::optional<std::string> string_member(simdjson::dom::element object, std::string_view key) {
  std::string_view value;
  if (object[key].get(value) != simdjson::SUCCESS) return std::nullopt;
  return std::string(value);
}

std::optional<int64_t> int_member(simdjson::dom::element object, std::string_view key) {
  int64_t value = 0;
  if (object[key].get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

bool has_member(simdjson::dom::element object, std::string_view key) {
  return object.is_object() && object[key].error() == simdjson::SUCCESS;
}

std::vector<simdjson::dom::element> array_items(simdjson::dom::element array) {
  std::vector<simdjson::dom::element> items;
  simdjson::dom::array items_array;
  if (array.get(items_array) != simdjson::SUCCESS) return items;
  for (simdjson::dom::element item : items_array) items.push_back(item);
  return items;
}

std::vector<simdjson::dom::element> array_member(simdjson::dom::element object, std::string_view key) {
  const std::optional<simdjson::dom::element> array = member(object, key);
  return array ? array_items(*array) : std::vector<simdjson::dom::element>{};
}

}  // namespace integration
