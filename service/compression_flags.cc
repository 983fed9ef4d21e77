#include "service/compression_flags.h"

#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"
#include "service/flag_error.h"

ABSL_FLAG(std::string, compress, "off",
          "codings replies of 1 KiB or more may use for clients whose Accept-Encoding allows them: off, gzip, zstd or "
          "gzip,zstd (zstd preferred on a tie); request bodies in gzip or zstd are accepted whatever this says");

namespace service {

absl::StatusOr<http::content_coding::CodingSet> parse_compress_flag(std::string_view value) {
  http::content_coding::CodingSet codings;
  if (value == "off") return codings;
  constexpr absl::string_view kAllowed = "must be off, gzip, zstd or gzip,zstd";
  for (absl::string_view name : absl::StrSplit(absl::string_view(value.data(), value.size()), ',')) {
    if (name == "gzip" && !codings.gzip) {
      codings.gzip = true;
    } else if (name == "zstd" && !codings.zstd) {
      codings.zstd = true;
    } else {
      return invalid_flag("compress", kAllowed);  // unknown, empty or repeated
    }
  }
  return codings;
}

absl::Status resolve_compression_flags(http::HttpLimits& public_limits, http::HttpLimits& admin_limits) {
  const absl::StatusOr<http::content_coding::CodingSet> codings = parse_compress_flag(absl::GetFlag(FLAGS_compress));
  if (!codings.ok()) return codings.status();
  public_limits.reply_codings = *codings;
  admin_limits.reply_codings = *codings;
  return absl::OkStatus();
}

}  // namespace service
