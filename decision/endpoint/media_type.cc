#include "decision/endpoint/media_type.h"

#include "absl/strings/match.h"
#include "runtime/absl_view.h"

namespace decision::endpoint {

bool is_json_media_type(std::string_view content_type) {
  const size_t end = content_type.find(';');
  std::string_view type = content_type.substr(0, end);
  // RFC 9110 section 8.3: optional whitespace may sit before the ";" of parameters.
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  return absl::EqualsIgnoreCase(runtime::av(type), "application/json");
}

}  // namespace decision::endpoint
