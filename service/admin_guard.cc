#include "service/admin_guard.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "absl/strings/match.h"
#include "http/error_body.h"
#include "http/error_codes.h"
#include "runtime/absl_view.h"

namespace service {
namespace {

std::array<unsigned char, 32> digest_of(std::string_view text) {
  std::array<unsigned char, 32> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
  return digest;
}

}  // namespace

AdminGuard::AdminGuard(const std::string& token, Access access, http::Handler& inner)
    : has_token_(!token.empty()), token_digest_(digest_of(token)), access_(access), inner_(inner) {}

bool AdminGuard::authorized(const http::Request& request) const {
  if (request.has_repeated_header("Authorization")) return false;
  // RFC 9110 section 11.1: the scheme is case-insensitive, then one or more spaces.
  constexpr std::string_view kScheme = "bearer";
  std::string_view value = request.header("Authorization");
  if (value.size() <= kScheme.size() || !absl::EqualsIgnoreCase(runtime::av(value.substr(0, kScheme.size())),
                                                                  runtime::av(kScheme))) {
    return false;
  }
  value.remove_prefix(kScheme.size());
  const size_t token_start = value.find_first_not_of(' ');
  if (token_start == 0 || token_start == std::string_view::npos) return false;
  // Digests of equal length compared in constant time: neither the token's bytes nor its
  // length leak through timing.
  const std::array<unsigned char, 32> given = digest_of(value.substr(token_start));
  return CRYPTO_memcmp(given.data(), token_digest_.data(), given.size()) == 0;
}

void AdminGuard::handle(const http::Request& request, http::Response& response) {
  if (!has_token_) {
    if (!request.peer_loopback) {
      // RFC 9110 section 15.5.2: a 401 carries a challenge, even one no token answers here.
      response.add_header("WWW-Authenticate", "Bearer");
      http::set_error(response, 401, http::error_code::kAdminUnauthorized,
                      "the admin plane serves loopback peers only while no --admin-token is set");
      return;
    }
  } else if (access_ == Access::kWrite && !authorized(request)) {
    response.add_header("WWW-Authenticate", "Bearer");
    http::set_error(response, 401, http::error_code::kAdminUnauthorized, "admin writes need Authorization: Bearer <--admin-token>");
    return;
  }
  inner_.handle(request, response);
}

}  // namespace service
