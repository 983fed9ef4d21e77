#include "decision/request/read_context.h"

#include "decision/request/json_number.h"

namespace decision::request {

bool ReadContext::fail(JsonFault fault) {
  if (fault_ == JsonFault::kNone) fault_ = fault;
  return false;
}

void ReadContext::error(int code, std::string_view message) {
  errors.add(code, message, path);
}

void ReadContext::error_at(std::string_view key, int code, std::string_view message) {
  PathScope scope(path, key);
  errors.add(code, message, path);
}

void ReadContext::forget_errors_at(std::string_view key) {
  if (errors.empty()) return;
  PathScope scope(path, key);
  errors.forget_under(path);
}

bool ReadContext::enter() {
  if (depth_ >= kMaxJsonDepth) return fail(JsonFault::kTooDeep);
  ++depth_;
  return true;
}

Found ReadContext::expect(ondemand::value& value, ondemand::json_type expected, int code,
                          std::string_view message) {
  ondemand::json_type kind;
  if (!type(value, kind)) return Found::kFault;
  if (kind == ondemand::json_type::null) return check_null(value) ? Found::kNull : Found::kFault;
  if (kind != expected) {
    error(code, message);
    return skip(value) ? Found::kOtherKind : Found::kFault;
  }
  return Found::kExpected;
}

bool ReadContext::type(ondemand::value& value, ondemand::json_type& out) {
  if (value.type().get(out) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
  return true;
}

bool ReadContext::get_string(ondemand::value& value, std::string_view& out) {
  if (value.get_string().get(out) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
  return true;
}

bool ReadContext::get_bool(ondemand::value& value, bool& out) {
  if (value.get_bool().get(out) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
  return true;
}

bool ReadContext::check_null(ondemand::value& value) {
  bool is_null = false;
  if (value.is_null().get(is_null) != simdjson::SUCCESS || !is_null) {
    return fail(JsonFault::kInvalid);
  }
  return true;
}

bool ReadContext::number_token(ondemand::value& value, std::string_view& out) {
  out = trim_token(value.raw_json_token());
  if (!is_json_number(out)) return fail(JsonFault::kInvalid);
  return true;
}

bool ReadContext::get_double(ondemand::value& value, double& out, bool& in_range) {
  std::string_view token;
  if (!number_token(value, token)) return false;
  // The literal is valid JSON; a failure now can only be a magnitude no double holds.
  in_range = value.get_double().get(out) == simdjson::SUCCESS;
  return true;
}

bool ReadContext::skip(ondemand::value& value) {
  ondemand::json_type kind;
  if (!type(value, kind)) return false;
  switch (kind) {
    case ondemand::json_type::array:
      return for_each_item(value, [this](uint32_t, ondemand::value& item) { return skip(item); });
    case ondemand::json_type::object:
      return for_each_field(value, [this](std::string_view, ondemand::value& member) { return skip(member); });
    case ondemand::json_type::number: {
      std::string_view token;
      return number_token(value, token);
    }
    case ondemand::json_type::string: {
      std::string_view text;
      return get_string(value, text);
    }
    case ondemand::json_type::boolean: {
      bool flag = false;
      return get_bool(value, flag);
    }
    case ondemand::json_type::null:
      return check_null(value);
  }
  return fail(JsonFault::kInvalid);
}

bool ReadContext::skip_capturing(ondemand::value& value, std::string_view& raw) {
  const char* start = value.raw_json_token().data();
  if (!skip(value)) return false;
  return raw_since(start, raw);
}

bool ReadContext::raw_since(const char* start, std::string_view& raw) {
  // The iterator now rests on the token after the container's closing bracket; inside the
  // root object there always is one (',' or the root's '}').
  const char* next = nullptr;
  if (doc.current_location().get(next) != simdjson::SUCCESS) return fail(JsonFault::kInvalid);
  const char* end = next;
  while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r')) {
    --end;
  }
  if (end <= start || (end[-1] != '}' && end[-1] != ']')) return fail(JsonFault::kInvalid);
  raw = std::string_view(start, static_cast<size_t>(end - start));
  return true;
}

}  // namespace decision::request
