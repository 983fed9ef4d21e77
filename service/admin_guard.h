#pragma once
// Who may use the admin plane (docs/operations.md). With --admin-token set, every admin
// write (the POST routes: catalog uploads, explains) needs `Authorization: Bearer <token>`,
// compared in constant time, else 401 10060; reads (health, readiness, metrics) are served
// to whoever reaches the listener. Without a token, only loopback peers are served at all:
// any other peer gets 401 10060 on every route, whatever it sends.
//
// Wraps the handler of one admin route.
#include <array>
#include <string>

#include "http/router.h"

namespace service {

class AdminGuard final : public http::Handler {
 public:
  enum class Access { kRead, kWrite };

  // token: --admin-token; empty means loopback only. inner must outlive the guard.
  AdminGuard(const std::string& token, Access access, http::Handler& inner);

  void handle(const http::Request& request, http::Response& response) override;

 private:
  bool authorized(const http::Request& request) const;

  bool has_token_;
  std::array<unsigned char, 32> token_digest_{};  // SHA-256: compared at a fixed length
  Access access_;
  http::Handler& inner_;
};

}  // namespace service
