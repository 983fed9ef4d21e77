#include "http/response.h"

namespace http {

void Response::reset() {
  status_ = 200;
  close_ = false;
  deferred_ = false;
  ticket_ = {};
  content_type_ = {};
  extra_headers_.clear();
  body_.clear();
}

void Response::add_header(std::string_view name, std::string_view value) {
  extra_headers_.append(name);
  extra_headers_.append(": ");
  extra_headers_.append(value);
  extra_headers_.append("\r\n");
}

void Response::set_text(int status, std::string_view text) {
  status_ = status;
  content_type_ = "text/plain; charset=utf-8";
  body_.assign(text);
}

}  // namespace http
