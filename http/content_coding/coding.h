#pragma once
// The content codings decisiond speaks (RFC 9110 8.4.1): gzip (libdeflate) and zstd
// (libzstd, RFC 8878), both ways: replies compressed with --compress, request bodies
// decoded whatever --compress says (docs/compression.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace http::content_coding {

enum class Coding : uint8_t { kIdentity, kGzip, kZstd };

// The coding's name as Content-Encoding and Accept-Encoding spell it.
std::string_view coding_name(Coding coding);

// Which codings replies may use (--compress); none: every reply is sent as it is.
struct CodingSet {
  bool gzip = false;
  bool zstd = false;

  bool any() const { return gzip || zstd; }
  bool has(Coding coding) const {
    return coding == Coding::kGzip ? gzip : coding == Coding::kZstd ? zstd : true;
  }
};

// What decoding a request body came to. reason: a literal, for details.reason.
enum class DecodeStatus : uint8_t {
  kDecoded,      // the decoded bytes, at most the limit
  kTooLarge,     // it decodes to more than the limit: 413 10003, decoding stopped there
  kUndecodable,  // corrupt, truncated, or a form we do not read: 400 10001
};
struct DecodeResult {
  DecodeStatus status = DecodeStatus::kDecoded;
  std::string_view reason;
};

// Replies smaller than this go as they are: the coding's header and trailer (18 bytes of
// gzip, a dozen of zstd) and the CPU would buy a few dozen bytes at best.
inline constexpr size_t kMinCompressedReplyBytes = 1024;
// Replies larger than this go as they are (counted): the core's scratch buffer is bounded,
// and no reply of the public routes comes near it (a decision is a few KiB).
inline constexpr size_t kMaxCompressedReplyBytes = 8u << 20;
// Levels, chosen by perf/compression_bench.cc on the demo catalog's decisions
// (docs/performance.md "Compression"): on replies of 3 to 8 KB the lowest level of each
// saves within a point of what any higher one does (gzip 6 saves 55.1% where 1 saves
// 54.5%; zstd 3 saves less than zstd 1) for 1.6 to 4 times less CPU.
inline constexpr int kGzipLevel = 1;
inline constexpr int kZstdLevel = 1;
// The largest zstd window a request body may ask for (8 MiB, what `zstd -19` uses): the
// decoder holds a window that large, so a frame asking for more is refused, not obeyed.
inline constexpr int kZstdMaxWindowLog = 23;

}  // namespace http::content_coding
