#include "decision/targeting/custom/request_variables.h"

#include "cel/arena.h"
#include "cel/compile_options.h"

namespace decision::targeting {

namespace {

// An object the request leaves out.
class EmptyMap final : public cel::MapValue {
 public:
  size_t size() const override { return 0; }
  std::optional<cel::Value> find(const cel::Value&, cel::Arena&) const override {
    return std::nullopt;
  }
  void for_each_key(cel::Visitor, cel::Arena&) const override {}
};
constexpr EmptyMap kEmptyMap;

// The literal as written decides (the reader classified it): "3" is an int, "3.0" and "3e0"
// are doubles.
cel::Value number_value(const request::CustomValue& value) {
  switch (value.number_kind) {
    case request::CustomNumber::kInt: return cel::Value::integer(value.int_number);
    case request::CustomNumber::kUint: return cel::Value::unsigned_integer(value.uint_number);
    case request::CustomNumber::kDouble: break;
  }
  return cel::Value::floating(value.number);
}

cel::Value scalar_value(const request::CustomValue& value) {
  switch (value.kind) {
    case request::CustomKind::kString: return cel::Value::string(value.text);
    case request::CustomKind::kNumber: return number_value(value);
    case request::CustomKind::kBool: return cel::Value::boolean(value.boolean);
    case request::CustomKind::kArray: break;  // never an item (the reader refuses nesting)
  }
  return cel::Value::error(cel::ErrorCode::kNoMatchingOverload, 0);
}

// An array member of targeting.custom: a view over the reader's items.
class CustomItemsList final : public cel::ListValue {
 public:
  explicit CustomItemsList(std::span<const request::CustomValue> items) : items_(items) {}
  size_t size() const override { return items_.size(); }
  cel::Value at(size_t index, cel::Arena&) const override { return scalar_value(items_[index]); }

 private:
  std::span<const request::CustomValue> items_;
};

}  // namespace

size_t CustomMembersMap::size() const {
  return targeting_ == nullptr ? 0 : targeting_->custom_count;
}

std::optional<cel::Value> CustomMembersMap::find(const cel::Value& key, cel::Arena& arena) const {
  if (targeting_ == nullptr || key.kind() != cel::Kind::kString) return std::nullopt;
  const std::string_view name = key.as_text();
  for (const request::CustomEntry& entry : targeting_->custom()) {
    if (entry.key != name) continue;
    if (entry.value.kind != request::CustomKind::kArray) return scalar_value(entry.value);
    const CustomItemsList* list = arena.create<CustomItemsList>(targeting_->items(entry));
    if (list == nullptr) return cel::Value::error(cel::ErrorCode::kLimitExceeded, 0);
    return cel::Value::list(list);
  }
  return std::nullopt;
}

void CustomMembersMap::for_each_key(cel::Visitor visit, cel::Arena&) const {
  if (targeting_ == nullptr) return;
  for (const request::CustomEntry& entry : targeting_->custom()) {
    if (!visit(cel::Value::string(entry.key))) return;
  }
}

RequestVariables::RequestVariables() {
  static_assert(cel::kRequestVariables[0] == "custom" && cel::kRequestVariables[1] == "user" &&
                    cel::kRequestVariables[2] == "device" && cel::kRequestVariables[3] == "app",
                "slots of values_ and objects_");
  values_[0] = cel::Value::map(&custom_);
}

void RequestVariables::begin_request(const request::DecisionRequest& request) {
  const std::array<std::string_view, 3> texts = {request.user_json, request.device_json,
                                                 request.app_json};
  for (size_t i = 0; i < objects_.size(); ++i) {
    objects_[i].text = texts[i];
    objects_[i].parsed = false;
    values_[i + 1] = cel::Value::map(&kEmptyMap);
  }
  custom_.reset(nullptr);
}

std::span<const cel::Value> RequestVariables::values(VariableSet read) {
  for (size_t i = 0; i < objects_.size(); ++i) {
    JsonObject& object = objects_[i];
    if ((read & (1u << (i + 1))) != 0 && !object.parsed && !object.text.empty()) {
      values_[i + 1] = parse(object);
    }
  }
  return values_;
}

cel::Value RequestVariables::parse(JsonObject& object) {
  object.parsed = true;
  // The text lies inside the reader's padded copy of the body, so simdjson may read its
  // padding in place (realloc_if_needed false: no copy).
  simdjson::dom::element root;
  simdjson::dom::object members;
  if (parser_.parse_into_document(object.document, object.text.data(), object.text.size(), false)
          .get(root) != simdjson::SUCCESS ||
      root.get_object().get(members) != simdjson::SUCCESS) {
    return cel::Value::error(cel::ErrorCode::kUnboundVariable, 0);
  }
  object.map.emplace(members);
  return cel::Value::map(&*object.map);
}

}  // namespace decision::targeting
