// Fuzz driver for http::RequestParser. The first input byte picks the split points, the
// rest is fed in pieces, as a network would deliver it, through every event the parser
// can raise. Invariants checked: no read past the input, consumed never exceeds what
// was fed, an error is final until reset, and every complete request's views lie inside
// the parser's limits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "http/request_parser.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void feed_all(http::RequestParser& parser, const http::HttpLimits& limits, std::string_view bytes) {
  for (;;) {
    const http::RequestParser::Step step = parser.feed(bytes);
    check(step.consumed <= bytes.size());
    bytes.remove_prefix(step.consumed);
    switch (step.event) {
      case http::RequestParser::Event::kNeedMore:
        check(bytes.empty());
        return;
      case http::RequestParser::Event::kError:
        check(parser.feed("GET / HTTP/1.1\r\n\r\n").event == http::RequestParser::Event::kError);
        check(parser.error().status >= 400);
        return;
      case http::RequestParser::Event::kContinue:
        break;
      case http::RequestParser::Event::kRequest: {
        const http::Request& r = parser.request();
        check(r.body.size() <= limits.max_body_bytes);
        check(r.header_count <= limits.max_headers);
        check(r.target.size() <= limits.max_header_bytes);
        (void)r.header("host");
        break;
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static http::HttpLimits limits = [] {
    http::HttpLimits l;
    l.max_body_bytes = 1024;  // small, so the fuzzer reaches the limits
    l.max_header_bytes = 2048;
    l.max_headers = 16;
    return l;
  }();
  static http::RequestParser parser(limits);
  parser.reset();
  const size_t piece = 1 + data[0] % 64;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  while (!rest.empty()) {
    const std::string_view chunk = rest.substr(0, piece);
    rest.remove_prefix(chunk.size());
    feed_all(parser, limits, chunk);
  }
  return 0;
}
