#pragma once
// user.ip: an IPv4 dotted-quad or IPv6 literal, nothing else (no brackets, no zone index,
// no port, no surrounding spaces).
#include <string_view>

#include "decision/request/decision_request.h"

namespace decision::request {

// Longest IPv6 text form: 8 groups of 4 hex digits and 7 colons, or 6 groups with an
// embedded dotted quad (45 bytes).
inline constexpr size_t kMaxIpLiteralBytes = 45;

// Fills out and returns true for a valid literal; leaves out alone otherwise.
bool parse_ip_address(std::string_view text, IpAddress& out);

}  // namespace decision::request
