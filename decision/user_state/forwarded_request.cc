#include "decision/user_state/forwarded_request.h"

#include "api_versions/version_resolver.h"
#include "decision/localization/accept_language.h"

namespace decision::user_state {

void ForwardedRequest::capture(const http::Request& request, http::Response& response, bool with_body) {
  ticket_ = response.defer();
  body_.assign(with_body ? request.body : std::string_view());
  const std::optional<std::string_view> version = request.find_header(api_versions::kDecisionVersionHeader);
  has_version_ = version.has_value();
  version_.assign(version.value_or(""));
  const std::optional<std::string_view> languages = request.find_header(localization::kAcceptLanguageHeader);
  has_accept_language_ = languages.has_value();
  accept_language_.assign(languages.value_or(""));
  client_address_ = request.client_address;
}

http::Request ForwardedRequest::replay(std::string_view path) const {
  http::Request request;
  request.method = http::Method::kPost;
  request.path = path;
  request.headers[request.header_count++] = {"Content-Type", "application/json"};
  if (has_version_) request.headers[request.header_count++] = {api_versions::kDecisionVersionHeader, version_};
  if (has_accept_language_) {
    request.headers[request.header_count++] = {localization::kAcceptLanguageHeader, accept_language_};
  }
  request.body = body_;
  request.client_address = client_address_;
  return request;
}

bool ForwardedRequest::complete() {
  const bool delivered = ticket_.complete(reply_);
  ticket_ = {};
  return delivered;
}

}  // namespace decision::user_state
