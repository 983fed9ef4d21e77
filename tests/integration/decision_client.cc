#include "tests/integration/decision_client.h"

#include <vector>

namespace integration {

CurlReply DecisionClient::decide(const std::string& body, const DecisionHeaders& headers) {
  std::vector<std::string> lines;
  // "Content-Type:" with no value stops curl sending its form-encoded default.
  lines.push_back("Content-Type:" + (headers.content_type ? " " + *headers.content_type : std::string()));
  if (headers.version) lines.push_back("X-Decision-Version: " + *headers.version);
  if (headers.accept_language) lines.push_back("Accept-Language: " + *headers.accept_language);
  return curl_.post_with_headers(url_, body, lines);
}

}  // namespace integration
