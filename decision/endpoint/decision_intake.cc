#include "decision/endpoint/decision_intake.h"

#include "decision/endpoint/media_type.h"
#include "http/error_body.h"
#include "http/error_codes.h"

namespace decision::endpoint {

using http::error_code::kUnsupportedMediaType;

DecisionIntake::DecisionIntake(const api_versions::VersionTable& versions, size_t max_body_bytes)
    : versions_(versions, api_versions::kDecisionVersionHeader), reader_(max_body_bytes) {}

IntakeVerdict DecisionIntake::read(const http::Request& request, int64_t now_s, http::Response& response) {
  const api_versions::Resolution& version = versions_.resolve_request(request, now_s);
  if (!version.served()) {
    api_versions::VersionResolver::write_error(version, response);
    return IntakeVerdict::kRejectedVersion;
  }
  version_ = &version;
  versions_.add_reply_headers(version, response);

  if (request.has_repeated_header("Content-Type") || !is_json_media_type(request.header("Content-Type"))) {
    http::set_error(response, 415, kUnsupportedMediaType, "Content-Type must be application/json");
    return IntakeVerdict::kWrongMediaType;
  }

  request::ReadOptions options;
  options.format_understood = version.features().format_filter;
  options.destination_understood = version.features().destination_targeting;
  const request::ReadResult read = reader_.read(request.body, options, request_);
  if (!read.ok()) {
    response.set_json(read.http_status());
    response.body().clear();
    http::append_error_envelope(response.body(), read.errors);
    return IntakeVerdict::kInvalidBody;
  }
  set_client_ip(request.client_address);
  return IntakeVerdict::kAccepted;
}

void DecisionIntake::set_client_ip(const runtime::IpAddress& address) {
  request::IpAddress& ip = request_.client_ip;
  ip = {};
  if (address.family == runtime::IpAddress::Family::kV4) ip.family = request::IpAddress::Family::kV4;
  if (address.family == runtime::IpAddress::Family::kV6) ip.family = request::IpAddress::Family::kV6;
  ip.bytes = address.bytes;
}

void DecisionIntake::refuse_overloaded(http::Response& response, std::string_view message) const {
  response.reset();
  versions_.add_reply_headers(*version_, response);
  http::set_overloaded(response, message);
}

}  // namespace decision::endpoint
