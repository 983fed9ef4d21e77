#include "http/cors.h"

namespace http {

std::string cors_reply_headers(const CorsPolicy& policy) {
  std::string block;
  block.append("Access-Control-Allow-Origin: ").append(policy.allow_origin).append("\r\n");
  if (!policy.expose_headers.empty()) {
    block.append("Access-Control-Expose-Headers: ").append(policy.expose_headers).append("\r\n");
  }
  return block;
}

CorsPreflightHandler::CorsPreflightHandler(const CorsPolicy& policy)
    : max_age_(std::to_string(policy.max_age_s)), policy_(policy) {}

void CorsPreflightHandler::handle(const Request&, Response& response) {
  response.set_status(204);
  response.add_header("Access-Control-Allow-Methods", policy_.allow_methods);
  if (!policy_.allow_headers.empty()) response.add_header("Access-Control-Allow-Headers", policy_.allow_headers);
  if (policy_.max_age_s > 0) response.add_header("Access-Control-Max-Age", max_age_);
}

}  // namespace http
