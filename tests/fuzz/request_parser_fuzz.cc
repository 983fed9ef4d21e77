// Fuzz driver for http::RequestParser over a connection's whole byte stream: pipelined
// requests, delivered in pieces cut wherever the fuzzer says, read as http::Connection
// reads them (after a request, the rest of the piece; after 100-continue, the rest; after
// an error or a request that ends the connection, nothing more).
//
// Input: N | N piece lengths | stream. N is the first byte modulo 16; each of the next N
// bytes is a piece length minus one (1..256), used in turn until the stream is fed. With
// N = 0 the stream arrives one byte at a time.
//
// The stream is read twice, in one piece and in the fuzzer's pieces. Invariants, any
// break aborts:
//   - no read past the input (ASan), consumed never exceeds what was fed, kNeedMore
//     consumes everything;
//   - an error is final: the parser refuses anything fed after it, with a 4xx status;
//   - every complete request lies inside the limits;
//   - the cut points change nothing: the same requests (method, target, path, query,
//     version, keep-alive, headers, body) and 100-continues in the same order, and both
//     readings end the same way (an error, or waiting inside or between requests). The
//     error's status may differ: a header cut in two is counted against the header budget
//     piece by piece, so 431 can come before a malformed byte later in the same field.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "http/limits.h"
#include "http/request_parser.h"

namespace {

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "request_parser_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

// What a connection saw, one line per event; the end says how the stream ended.
struct Reading {
  std::vector<std::string> events;
  enum class End { kWaitingBetween, kWaitingInside, kError, kClosed } end = End::kWaitingBetween;
};

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append("=").append(std::to_string(value.size())).append(":").append(value).append(" ");
}

std::string describe(const http::Request& r) {
  std::string out = "request ";
  append_field(out, "method", r.method_text);
  append_field(out, "enum", std::to_string(static_cast<int>(r.method)));
  append_field(out, "target", r.target);
  append_field(out, "path", r.path);
  append_field(out, "query", r.query);
  append_field(out, "version", std::to_string(r.version_major) + "." + std::to_string(r.version_minor));
  append_field(out, "keep_alive", r.keep_alive ? "1" : "0");
  for (size_t i = 0; i < r.header_count; ++i) {
    append_field(out, "name", r.headers[i].name);
    append_field(out, "value", r.headers[i].value);
  }
  append_field(out, "body", r.body);
  return out;
}

// Feeds one piece as Connection::process does. False once the connection is done.
bool feed_piece(http::RequestParser& parser, const http::HttpLimits& limits, std::string_view bytes,
                Reading& reading) {
  for (;;) {
    const http::RequestParser::Step step = parser.feed(bytes);
    check(step.consumed <= bytes.size(), "consumed <= fed");
    bytes.remove_prefix(step.consumed);
    switch (step.event) {
      case http::RequestParser::Event::kNeedMore:
        check(bytes.empty(), "kNeedMore consumes every byte");
        return true;
      case http::RequestParser::Event::kError:
        check(parser.error().status >= 400 && parser.error().status < 500, "an error is a 4xx");
        check(parser.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n").event == http::RequestParser::Event::kError,
              "an error is final");
        reading.end = Reading::End::kError;
        return false;
      case http::RequestParser::Event::kContinue:
        reading.events.push_back("100-continue");
        break;
      case http::RequestParser::Event::kRequest: {
        const http::Request& r = parser.request();
        check(r.body.size() <= limits.max_body_bytes, "body within max_body_bytes");
        check(r.header_count <= limits.max_headers, "headers within max_headers");
        check(r.target.size() <= limits.max_header_bytes, "target within max_header_bytes");
        check(!parser.in_message(), "a complete request leaves no message open");
        reading.events.push_back(describe(r));
        if (!r.keep_alive) {
          reading.end = Reading::End::kClosed;
          return false;
        }
        break;
      }
    }
  }
}

Reading read_stream(http::RequestParser& parser, const http::HttpLimits& limits, std::string_view stream,
                    std::string_view lengths) {
  parser.reset();
  Reading reading;
  size_t turn = 0;
  while (!stream.empty()) {
    const size_t piece = lengths.empty() ? 1 : 1 + static_cast<uint8_t>(lengths[turn++ % lengths.size()]);
    const std::string_view chunk = stream.substr(0, piece);
    stream.remove_prefix(chunk.size());
    if (!feed_piece(parser, limits, chunk, reading)) return reading;
  }
  reading.end = parser.in_message() ? Reading::End::kWaitingInside : Reading::End::kWaitingBetween;
  return reading;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const http::HttpLimits limits = [] {
    http::HttpLimits l;
    l.max_body_bytes = 1024;  // small, so the fuzzer reaches the limits
    l.max_header_bytes = 2048;
    l.max_headers = 16;
    return l;
  }();
  static http::RequestParser parser(limits);

  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t count = std::min<size_t>(data[0] % 16, size - 1);
  const std::string_view lengths = input.substr(1, count);
  const std::string_view stream = input.substr(1 + count);

  Reading at_once;
  parser.reset();
  if (!stream.empty() && feed_piece(parser, limits, stream, at_once)) {
    at_once.end = parser.in_message() ? Reading::End::kWaitingInside : Reading::End::kWaitingBetween;
  }
  const Reading cut = read_stream(parser, limits, stream, lengths);
  check(cut.events == at_once.events, "the cut points change no request");
  check(cut.end == at_once.end, "the cut points change how the stream ends");
  return 0;
}
