#pragma once
// A request as the router sees it after parsing: method and path, nothing else.
#include <string_view>

#include "http/request.h"

namespace http::testing {

inline Request request_for(Method method, std::string_view path) {
  Request r;
  r.method = method;
  r.method_text = method_name(method);
  r.path = path;
  r.target = path;
  return r;
}

}  // namespace http::testing
