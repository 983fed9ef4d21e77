#pragma once
#include <string_view>

namespace service {

// The text of catalogs/demo.json as it was at build time.
std::string_view demo_catalog_json();

}  // namespace service
