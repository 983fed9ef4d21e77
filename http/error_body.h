#pragma once
// The error envelope (docs/errors.md):
// {"success":false,"data":null,"errors":[{"code","message","details"}],"warnings":null}
#include <span>
#include <string>
#include <string_view>

#include "http/response.h"

namespace http {

struct ErrorItem {
  int code = 0;
  std::string_view message;
  std::string_view field;  // JSON path of the offending field; empty for none
};

void append_error_envelope(std::string& out, std::span<const ErrorItem> errors);
// One error whose details say why in words ({"reason": reason}) rather than by a field.
void append_error_with_reason(std::string& out, int code, std::string_view message, std::string_view reason);
// Replaces the response with one error.
void set_error(Response& response, int status, int code, std::string_view message,
               std::string_view field = {});
// 503 10098 with Retry-After: 1, the one answer of every overload refusal (a connection
// past the limit, a cross-core ask past its bound). Headers already set are kept.
void set_overloaded(Response& response, std::string_view message);

}  // namespace http
