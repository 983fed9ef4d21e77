#pragma once
// Open Measurement verification resources of a creative (versions from 2025-11-01).
//
// The member names have two spellings in use (docs/decision-response.md): vendorKey, url
// and parameters, and vendorKey, scriptUrl and verificationParameters. A writer serves both
// by writing both: each item carries url and scriptUrl with the same value, and parameters
// and verificationParameters when the catalog gives parameters, so a client built on either
// reading finds its fields.
#include <span>

#include "decision/catalog/model.h"
#include "http/json_writer.h"

namespace decision::response {

// Writes the array (empty when the creative has none) as the value after a key.
void write_verification_resources(http::JsonWriter& json,
                                  std::span<const catalog::VerificationItem> items);

}  // namespace decision::response
