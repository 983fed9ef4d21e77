#pragma once
// Set-up failures of libcrypto (no memory for a context, a provider without AES-GCM or
// HMAC). They happen at start-up, when codecs are built, and leave nothing to serve with,
// so they end the process with OpenSSL's reason instead of limping on.
#include <openssl/err.h>

#include <cstdio>
#include <cstdlib>

namespace tracking {

[[noreturn]] inline void abort_on_crypto_failure(const char* what) {
  char reason[256];
  ERR_error_string_n(ERR_get_error(), reason, sizeof(reason));
  std::fprintf(stderr, "decisiond: %s failed: %s\n", what, reason);
  std::abort();
}

}  // namespace tracking
