#pragma once
// The first half of every handler that takes a decision request (POST /v1/decision and
// POST /admin/explain, docs/decision-request.md and docs/explain.md), in the decision's
// order:
//   1. the version header, before anything else (400 10042, 410 10043); every reply past
//      this step echoes the version served, with the deprecation headers when due;
//   2. Content-Type application/json (415 10002);
//   3. the body, read and validated in one pass (400 10001, 422 with every error).
// One reader, one resolver and one parsed request per handler, reused: a warm core
// allocates nothing here.
#include <cstddef>
#include <cstdint>

#include "api_versions/version_resolver.h"
#include "api_versions/version_table.h"
#include "decision/request/decision_request.h"
#include "decision/request/request_reader.h"
#include "http/request.h"
#include "http/response.h"

namespace decision::endpoint {

// Where a request stopped, for the handler's counters.
enum class IntakeVerdict : uint8_t {
  kAccepted,         // request() and version() hold it; the reply carries the version headers
  kRejectedVersion,  // 400 10042 or 410 10043 written
  kWrongMediaType,   // 415 written
  kInvalidBody,      // 400 10001 or 422 written
};

class DecisionIntake {
 public:
  // versions must outlive the intake.
  DecisionIntake(const api_versions::VersionTable& versions, size_t max_body_bytes);

  // Steps 1 to 3 for request on the UTC day of now_s. Anything but kAccepted leaves the
  // error reply in response.
  IntakeVerdict read(const http::Request& request, int64_t now_s, http::Response& response);

  // Of the last read() that got past step 1; valid until the next read().
  const api_versions::Resolution& version() const { return *version_; }
  const request::DecisionRequest& request() const { return request_; }
  // After read() accepted: the version served's headers into another reply (a kept
  // request's, answered later: kept_intakes.h).
  void add_version_headers(http::Response& response) const { versions_.add_reply_headers(*version_, response); }
  // After read() accepted: replaces whatever the reply holds (a deferral undone, say) with
  // 503 10098 and Retry-After, still echoing the version served.
  void refuse_overloaded(http::Response& response, std::string_view message) const;

  const request::RequestReaderCounters& reader_counters() const { return reader_.counters(); }

 private:
  // The transport's client into the request: it places the user when the body has no user.ip.
  void set_client_ip(const runtime::IpAddress& address);

  api_versions::VersionResolver versions_;
  request::RequestReader reader_;
  request::DecisionRequest request_;
  const api_versions::Resolution* version_ = nullptr;
};

}  // namespace decision::endpoint
