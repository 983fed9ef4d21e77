#include "decision/response/verification_json.h"

namespace decision::response {

void write_verification_resources(http::JsonWriter& json,
                                  std::span<const catalog::VerificationItem> items) {
  json.begin_array();
  for (const catalog::VerificationItem& item : items) {
    json.begin_object().literal_key("vendorKey").string(item.vendor_key);
    json.literal_key("url").string(item.url).literal_key("scriptUrl").string(item.url);
    if (!item.parameters.empty()) {
      json.literal_key("parameters").string(item.parameters);
      json.literal_key("verificationParameters").string(item.parameters);
    }
    json.end_object();
  }
  json.end_array();
}

}  // namespace decision::response
