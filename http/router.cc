#include "http/router.h"

#include "http/error_body.h"
#include "http/error_codes.h"

namespace http {

void Router::add(Method method, std::string_view path, std::string_view name, Handler& handler,
                 Shedding shedding, ReplyDurability durability) {
  routes_.push_back(
      Route{method, std::string(path), std::string(name), &handler, shedding, durability,
            std::string(reply_headers_for(path))});
  std::string allow = allow_for(path);
  for (auto& [p, a] : allow_) {
    if (p == path) {
      a = std::move(allow);
      return;
    }
  }
  allow_.emplace_back(std::string(path), std::move(allow));
}

std::string Router::allow_for(std::string_view path) const {
  std::string allow;
  for (const Route& r : routes_) {
    if (r.path != path) continue;
    if (!allow.empty()) allow.append(", ");
    allow.append(method_name(r.method));
    if (r.method == Method::kGet) allow.append(", HEAD");
  }
  return allow;
}

void Router::add_reply_headers(std::string_view path, std::string_view lines) {
  for (Route& r : routes_) {
    if (r.path == path) r.reply_headers.append(lines);
  }
  for (auto& [p, block] : reply_headers_) {
    if (p == path) {
      block.append(lines);
      return;
    }
  }
  reply_headers_.emplace_back(std::string(path), std::string(lines));
}

std::string_view Router::reply_headers_for(std::string_view path) const {
  for (const auto& [p, block] : reply_headers_) {
    if (p == path) return block;
  }
  return {};
}

Router::Match Router::match(const Request& request, Response& response) const {
  // HEAD is GET without the body (RFC 9110 9.3.2); the reply writer drops the body.
  const Method method = request.method == Method::kHead ? Method::kGet : request.method;
  bool path_known = false;
  for (uint32_t i = 0; i < routes_.size(); ++i) {
    const Route& r = routes_[i];
    if (r.path != request.path) continue;
    if (r.method == method) return Match{r.handler, i, r.shedding, r.reply_headers, r.durability};
    path_known = true;
  }
  if (!path_known) {
    set_error(response, 404, error_code::kNoSuchRoute, "no such route");
    return Match{nullptr, unmatched(), Shedding::kNever, {}};
  }
  set_error(response, 405, error_code::kMethodNotAllowed, "method not allowed");
  for (const auto& [p, allow] : allow_) {
    if (p == request.path) response.add_header("Allow", allow);
  }
  // Counted under the path's first route: the path exists, the method did not fit.
  for (uint32_t i = 0; i < routes_.size(); ++i) {
    if (routes_[i].path == request.path) return Match{nullptr, i, Shedding::kNever, routes_[i].reply_headers};
  }
  return Match{nullptr, unmatched(), Shedding::kNever, {}};
}

std::vector<std::string> Router::route_names() const {
  std::vector<std::string> names;
  for (const Route& r : routes_) names.push_back(r.name);
  names.push_back("unmatched");
  return names;
}

}  // namespace http
