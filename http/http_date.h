#pragma once
// The Date header value (IMF-fixdate), formatted once per second per core.
#include <cstdint>
#include <string_view>

namespace http {

class HttpDate {
 public:
  // now_s: seconds since the Unix epoch.
  std::string_view at(int64_t now_s);
  static void format(int64_t unix_s, char out[29]);

 private:
  int64_t cached_s_ = -1;
  char text_[29] = {};
};

}  // namespace http
