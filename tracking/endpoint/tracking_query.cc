#include "tracking/endpoint/tracking_query.h"

namespace tracking::endpoint {

TrackingQuery parse_tracking_query(std::string_view query) {
  TrackingQuery parsed;
  while (!query.empty()) {
    const size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    query = end == std::string_view::npos ? std::string_view{} : query.substr(end + 1);
    const size_t equals = pair.find('=');
    const std::string_view name = pair.substr(0, equals);
    const std::string_view value = equals == std::string_view::npos ? std::string_view{} : pair.substr(equals + 1);
    if (name == "t") {
      // Two tokens in one URL were not issued by us: which one to count would be a guess.
      if (parsed.token || parsed.token_repeated) parsed.token_repeated = true;
      parsed.token = value;
    } else if (name == "code" && !parsed.code) {
      parsed.code = value;
    } else if (name == "reason" && !parsed.reason) {
      parsed.reason = value;
    }
  }
  if (parsed.token_repeated) parsed.token.reset();
  return parsed;
}

int vast_error_code(std::optional<std::string_view> code) {
  constexpr int kUndefinedError = 900;
  if (!code || code->size() != 3) return kUndefinedError;
  int value = 0;
  for (char c : *code) {
    if (c < '0' || c > '9') return kUndefinedError;
    value = value * 10 + (c - '0');
  }
  return value >= 100 ? value : kUndefinedError;
}

std::optional<int> verification_reason(std::optional<std::string_view> reason) {
  if (!reason || reason->empty() || reason->size() > 3 || (*reason)[0] == '0') return std::nullopt;
  int value = 0;
  for (char c : *reason) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace tracking::endpoint
