#pragma once
// Set-up failures of libcrypto (no memory for a context, a provider without AES-GCM or
// HMAC). They happen at start-up, when codecs are built, and leave nothing to serve with,
// so they end the process with OpenSSL's reason instead of limping on.
#include <openssl/err.h>

#include "runtime/log/logger.h"

namespace tracking {

[[noreturn]] inline void abort_on_crypto_failure(const char* what) {
  char reason[256];
  ERR_error_string_n(ERR_get_error(), reason, sizeof(reason));
  constexpr runtime::log::Logger kLog("crypto");
  kLog.error_then_abort("%s failed: %s", what, reason);
}

}  // namespace tracking
