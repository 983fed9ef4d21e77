#pragma once
// A per-request "completed" callback, for observers above http/ (the access log): the facts
// of a request and its reply at the moment the reply is queued, with the latency the
// metrics histogram records (the same clock read). http/ knows nothing of what an observer
// does with them, and nothing of files.
//
// Only a sample of requests reaches the observer: RequestSampler picks a fraction by a
// fixed-point accumulator (no clock, no random draw, no system call), so a server with no
// observer pays one branch per request and an observed one an add and a compare.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http/request.h"
#include "http/response.h"

namespace http {

struct CompletedRequest {
  // Null for a request that could not be read (malformed, too large, timed out): its
  // method, target and headers are not known.
  const Request* request = nullptr;
  std::string_view route;   // the metrics label
  const Response* reply = nullptr;  // status and body as queued
  int status = 0;
  size_t request_bytes = 0;  // bytes of the request as received (head and body)
  size_t reply_bytes = 0;    // bytes of the reply as queued (head and body)
  int64_t latency_ns = 0;    // as in decisiond_http_request_duration_seconds
  // The request's client (Request::client_address); for an unread request, the connection's.
  runtime::IpAddress client_address;
};

class RequestObserver {
 public:
  virtual ~RequestObserver() = default;
  // On the connection's core, before the reply is sent; views live until it returns.
  virtual void on_request_completed(const CompletedRequest& completed) = 0;
};

// One in every 1/fraction requests, deterministically: each request adds the fraction, in
// units of 2^-32, to an accumulator, and the request that carries it past 1 is taken. So
// 0.01 takes requests 100, 200, ...; 1 takes every one; 0 none.
class RequestSampler {
 public:
  static constexpr uint64_t kOne = uint64_t{1} << 32;

  RequestSampler() = default;
  explicit RequestSampler(double fraction)
      : step_(fraction <= 0 ? 0 : fraction >= 1 ? kOne : static_cast<uint64_t>(fraction * static_cast<double>(kOne))) {}

  bool take() {
    accumulated_ += step_;
    if (accumulated_ < kOne) return false;
    accumulated_ -= kOne;
    return true;
  }
  uint64_t step() const { return step_; }

 private:
  uint64_t step_ = 0;
  uint64_t accumulated_ = 0;
};

}  // namespace http
