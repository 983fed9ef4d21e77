#pragma once
// --compress (docs/compression.md): which codings replies may use. Request bodies are
// decoded whatever it says; nothing here is needed for that.
#include <string_view>

#include "absl/status/statusor.h"
#include "http/content_coding/coding.h"
#include "http/limits.h"

namespace service {

// "off", "gzip", "zstd", "gzip,zstd" (either order); the error says what is allowed.
absl::StatusOr<http::content_coding::CodingSet> parse_compress_flag(std::string_view value);

// Reads --compress into both listeners' limits (the TLS listener takes the public one's);
// the error is one line naming the flag.
absl::Status resolve_compression_flags(http::HttpLimits& public_limits, http::HttpLimits& admin_limits);

}  // namespace service
