#pragma once
// Request bytes for raw connections, so a test spells only what it is about.
#include <cstdio>
#include <string>
#include <string_view>

namespace integration {

// extra_headers: whole lines, each ending in \r\n.
inline std::string get_request(std::string_view path, std::string_view extra_headers = "") {
  return "GET " + std::string(path) + " HTTP/1.1\r\nHost: decisiond.test\r\n" + std::string(extra_headers) + "\r\n";
}

inline std::string post_request(std::string_view path, std::string_view body, std::string_view extra_headers = "") {
  return "POST " + std::string(path) + " HTTP/1.1\r\nHost: decisiond.test\r\nContent-Type: application/json\r\n" +
         "Content-Length: " + std::to_string(body.size()) + "\r\n" + std::string(extra_headers) + "\r\n" +
         std::string(body);
}

// One chunk of a chunked body: size in hex, CRLF, data, CRLF.
inline std::string chunk(std::string_view data) {
  char size[20];
  std::snprintf(size, sizeof(size), "%zx", data.size());
  return std::string(size) + "\r\n" + std::string(data) + "\r\n";
}

inline constexpr std::string_view kLastChunk = "0\r\n\r\n";

}  // namespace integration
