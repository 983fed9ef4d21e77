#pragma once
// The line grammar of a request head, checked byte by byte before llhttp reads it.
// llhttp 8 in strict mode still takes a bare LF after the request line and unfolds
// obs-fold (a header line starting with SP or HTAB, even under Content-Length). RFC 9112
// lets a server refuse both (sections 2.2 and 5.2), and a server must: a proxy in front
// that reads the same bytes the other way sees another request than we do (request
// smuggling). So every line of a head ends in CRLF and no line after the request line
// starts with whitespace; anything else is 400 10007. The trailer section of a chunked
// body is held to the same grammar (RequestParser checks the chunk-size lines).
#include <cstdint>
#include <string_view>

namespace http {

class HeadLineGuard {
 public:
  enum class Verdict : uint8_t {
    kInHead,     // every byte was a good head byte; the head goes on
    kHeadEnded,  // the blank line that ends a head was seen; later bytes are not looked at
    kRefused,    // a bare LF, a bare CR, or a line starting with SP or HTAB
  };

  // Before the next request's first byte (a new connection, or a request completed).
  void reset() { state_ = State::kBeforeRequestLine; }
  // After a chunked body's last chunk: trailer lines, then the blank line, as in a head.
  void enter_trailers() { state_ = State::kLineStart; }
  bool in_head() const { return state_ != State::kAfterHead && state_ != State::kRefused; }

  // Goes on from where the last call stopped; a head may be split anywhere.
  Verdict scan(std::string_view bytes);

 private:
  enum class State : uint8_t {
    kBeforeRequestLine,    // empty lines (CRLF) before a request line are allowed
    kBeforeRequestLineCR,
    kInLine,
    kInLineCR,
    kLineStart,            // after a line's CRLF: a field name, or the blank line
    kBlankLineCR,
    kAfterHead,
    kRefused,
  };

  State state_ = State::kBeforeRequestLine;
};

}  // namespace http
