#pragma once
// Accept-Encoding read per RFC 9110 12.5.3: which coding a reply may use.
//
// - No Accept-Encoding field: identity (the RFC allows any coding then, but a client that
//   says nothing, curl without --compressed for one, would get bytes it cannot read).
// - Weights: `q=` 0 to 1 with up to three decimals; q=0 refuses a coding. Names and `q`
//   are case-insensitive; `x-gzip` is gzip (RFC 9110 8.4.1.3). Whitespace around `,` and
//   `;` is allowed; empty list items are skipped.
// - `*` rates every coding the list does not name, identity included.
// - identity is acceptable unless refused (`identity;q=0`, or `*;q=0` without identity).
// - The coding offered with the highest weight wins, zstd on a tie; identity when the list
//   rates identity higher than that coding, or allows no offered coding. A client that
//   refuses identity and every offered coding still gets identity (406 would cost an ad).
// - An item that does not parse (a bad weight, a parameter other than q, a name with bytes
//   a token may not hold) is skipped; the rest of the list still counts. The first item
//   naming a coding rates it; later ones are ignored.
#include <cstdint>
#include <string_view>

#include "http/content_coding/coding.h"
#include "http/request.h"

namespace http::content_coding {

// What a request's Accept-Encoding fields say, weights in thousandths (0..1000).
struct AcceptedCodings {
  static constexpr int16_t kUnrated = -1;

  bool present = false;  // at least one Accept-Encoding field
  int16_t gzip = kUnrated;
  int16_t zstd = kUnrated;
  int16_t identity = kUnrated;
  int16_t any = kUnrated;  // `*`

  // Adds one field's items (several fields are one list, RFC 9110 5.3).
  void add_field(std::string_view value);
};

// The coding a reply may use, among those offered.
Coding choose_coding(const AcceptedCodings& accepted, CodingSet offered);

// Every Accept-Encoding field of the request, then choose_coding. Identity at once when
// nothing is offered (--compress=off): no header is read.
Coding negotiate(const Request& request, CodingSet offered);

}  // namespace http::content_coding
