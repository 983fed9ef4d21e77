#pragma once
// An owned copy of a parsed request, so requests can be compared after the parser has
// moved on (Request's views die at the next feed), and printed when a test fails.
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/request.h"
#include "http/request_parser.h"

namespace http::testing {

struct ParsedRequest {
  std::string method_text;
  std::string target;
  std::string path;
  std::string query;
  int version_major = 0;
  int version_minor = 0;
  bool keep_alive = false;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  bool operator==(const ParsedRequest&) const = default;
};

inline ParsedRequest own(const Request& r) {
  ParsedRequest p{std::string(r.method_text), std::string(r.target), std::string(r.path),
                  std::string(r.query), r.version_major, r.version_minor, r.keep_alive, {},
                  std::string(r.body)};
  for (size_t i = 0; i < r.header_count; ++i) {
    p.headers.emplace_back(std::string(r.headers[i].name), std::string(r.headers[i].value));
  }
  return p;
}

inline std::ostream& operator<<(std::ostream& os, const ParsedRequest& p) {
  os << p.method_text << " " << p.target << " HTTP/" << p.version_major << "."
     << p.version_minor << " keep_alive=" << p.keep_alive << " headers={";
  for (const auto& [name, value] : p.headers) os << "[" << name << ": " << value << "]";
  return os << "} body=[" << p.body << "]";
}

}  // namespace http::testing

namespace http {

// Found by argument-dependent lookup, so gtest prints events by name.
inline std::ostream& operator<<(std::ostream& os, RequestParser::Event e) {
  switch (e) {
    case RequestParser::Event::kNeedMore: return os << "kNeedMore";
    case RequestParser::Event::kRequest: return os << "kRequest";
    case RequestParser::Event::kContinue: return os << "kContinue";
    case RequestParser::Event::kError: return os << "kError";
  }
  return os << "?";
}

}  // namespace http
