#include "http/error_body.h"

#include "http/error_codes.h"

#include "http/json_writer.h"

namespace http {

void append_error_envelope(std::string& out, std::span<const ErrorItem> errors) {
  JsonWriter json(out);
  json.begin_object().key("success").boolean(false).key("data").null().key("errors").begin_array();
  for (const ErrorItem& e : errors) {
    json.begin_object().key("code").number(e.code).key("message").string(e.message);
    json.key("details").begin_object();
    if (!e.field.empty()) json.key("field").string(e.field);
    json.end_object().end_object();
  }
  json.end_array().key("warnings").null().end_object();
}

void append_error_with_reason(std::string& out, int code, std::string_view message, std::string_view reason) {
  JsonWriter json(out);
  json.begin_object().key("success").boolean(false).key("data").null().key("errors").begin_array();
  json.begin_object().key("code").number(code).key("message").string(message);
  json.key("details").begin_object().key("reason").string(reason).end_object().end_object();
  json.end_array().key("warnings").null().end_object();
}

void set_error(Response& response, int status, int code, std::string_view message,
               std::string_view field) {
  response.set_json(status);
  response.body().clear();
  const ErrorItem item{code, message, field};
  append_error_envelope(response.body(), std::span<const ErrorItem>(&item, 1));
}

void set_overloaded(Response& response, std::string_view message) {
  response.add_header("Retry-After", "1");
  set_error(response, 503, error_code::kOverloaded, message);
}

}  // namespace http
