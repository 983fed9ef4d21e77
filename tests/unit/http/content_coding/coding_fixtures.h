#pragma once
// What the content-coding unit tests share: the codecs of tests/support/body_codings.h,
// and a request carrying a coded body.
#include <initializer_list>
#include <string_view>

#include "http/request.h"
#include "tests/support/body_codings.h"

namespace http::content_coding::testing {

using test_support::json_like;
using test_support::random_bytes;
using test_support::zlib_gunzip;
using test_support::zlib_gzip;
using test_support::zstd_decode;
using test_support::zstd_frame;
using test_support::zstd_stream_frame;

// A POST carrying body with these Content-Encoding fields.
inline Request coded_request(std::string_view body, std::initializer_list<std::string_view> encodings) {
  Request request;
  request.method = Method::kPost;
  for (std::string_view value : encodings) request.headers[request.header_count++] = {"Content-Encoding", value};
  request.body = body;
  return request;
}

}  // namespace http::content_coding::testing
