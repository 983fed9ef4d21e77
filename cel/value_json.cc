#include "cel/value_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "cel/collections.h"
#include "runtime/absl_view.h"

namespace cel {
namespace {

void append_string(std::string_view text, std::string& out) {
  out.push_back('"');
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void append_double(double d, std::string& out) {
  if (std::isnan(d)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(d)) {
    out += d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
  const std::string_view text(buffer, result.ptr - buffer);
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

void append_key(const Value& key, Arena& arena, std::string& out) {
  if (key.kind() == Kind::kString) {
    append_string(key.as_text(), out);
    return;
  }
  std::string text;
  append_json(key, arena, text);
  append_string(text, out);
}

}  // namespace

void append_json(const Value& value, Arena& arena, std::string& out) {
  switch (value.kind()) {
    case Kind::kNull: out += "null"; return;
    case Kind::kBool: out += value.as_bool() ? "true" : "false"; return;
    case Kind::kInt: absl::StrAppend(&out, value.as_int()); return;
    case Kind::kUint: absl::StrAppend(&out, value.as_uint()); return;
    case Kind::kDouble: append_double(value.as_double(), out); return;
    case Kind::kString: append_string(value.as_text(), out); return;
    case Kind::kBytes: append_string(absl::Base64Escape(runtime::av(value.as_text())), out); return;
    case Kind::kType: append_string(type_name(value.as_type()), out); return;
    case Kind::kError:
      out += "{\"error\":";
      append_string(error_message(value.error_code()), out);
      out += "}";
      return;
    case Kind::kList: {
      out.push_back('[');
      bool first = true;
      value.as_list().for_each(
          [&](const Value& item) {
            if (!first) out.push_back(',');
            first = false;
            append_json(item, arena, out);
            return true;
          },
          arena);
      out.push_back(']');
      return;
    }
    case Kind::kMap: {
      const MapValue& map = value.as_map();
      out.push_back('{');
      bool first = true;
      map.for_each_key(
          [&](const Value& key) {
            if (!first) out.push_back(',');
            first = false;
            append_key(key, arena, out);
            out.push_back(':');
            append_json(map.find(key, arena).value_or(Value::null()), arena, out);
            return true;
          },
          arena);
      out.push_back('}');
      return;
    }
  }
}

}  // namespace cel
