#include "http/request.h"

#include "absl/strings/match.h"
#include "runtime/absl_view.h"

namespace http {

std::string_view method_name(Method method) {
  switch (method) {
    case Method::kGet: return "GET";
    case Method::kHead: return "HEAD";
    case Method::kPost: return "POST";
    case Method::kPut: return "PUT";
    case Method::kDelete: return "DELETE";
    case Method::kOptions: return "OPTIONS";
    case Method::kPatch: return "PATCH";
    case Method::kOther: break;
  }
  return "OTHER";
}

std::string_view Request::header(std::string_view name) const {
  for (size_t i = 0; i < header_count; ++i) {
    if (absl::EqualsIgnoreCase(runtime::av(headers[i].name), runtime::av(name))) return headers[i].value;
  }
  return {};
}

std::optional<std::string_view> Request::find_header(std::string_view name) const {
  for (size_t i = 0; i < header_count; ++i) {
    if (absl::EqualsIgnoreCase(runtime::av(headers[i].name), runtime::av(name))) return headers[i].value;
  }
  return std::nullopt;
}

bool Request::has_header(std::string_view name) const { return find_header(name).has_value(); }

bool Request::has_repeated_header(std::string_view name) const {
  int seen = 0;
  for (size_t i = 0; i < header_count; ++i) {
    if (absl::EqualsIgnoreCase(runtime::av(headers[i].name), runtime::av(name)) && ++seen == 2) return true;
  }
  return false;
}

}  // namespace http
