#pragma once
// The catalog a process starts with: --catalog, or the built-in demo catalog.
#include <memory>
#include <string>
#include <vector>

#include "decision/catalog/snapshot.h"
#include "service/flags.h"

namespace service {

struct StartupCatalog {
  std::shared_ptr<const decision::catalog::CatalogSnapshot> snapshot;  // null when refused
  std::string source;               // the file, or "built-in demo catalog"
  std::vector<std::string> errors;  // every error, one line each, when refused
};

StartupCatalog load_startup_catalog(const ServiceConfig& config);

}  // namespace service
