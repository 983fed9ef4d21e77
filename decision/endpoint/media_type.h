#pragma once
// The Content-Type rule of POST /v1/decision (docs/decision-response.md: otherwise 415 10002).
#include <string_view>

namespace decision::endpoint {

// True for the media type application/json (RFC 8259 section 11), in any letter case, with
// or without parameters ("application/json; charset=utf-8"). JSON has no charset other
// than UTF-8, so a charset parameter is not judged; the body's bytes are.
bool is_json_media_type(std::string_view content_type);

}  // namespace decision::endpoint
