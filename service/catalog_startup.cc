#include "service/catalog_startup.h"

#include "decision/catalog/loader.h"
#include "service/demo_catalog.h"

namespace service {

StartupCatalog load_startup_catalog(const ServiceConfig& config) {
  StartupCatalog result;
  decision::catalog::LoadResult loaded;
  if (config.catalog_path.empty()) {
    result.source = "built-in demo catalog";
    loaded = decision::catalog::load_catalog(demo_catalog_json());
  } else {
    result.source = config.catalog_path;
    loaded = decision::catalog::load_catalog_file(config.catalog_path);
  }
  if (loaded.ok()) {
    result.snapshot = std::move(loaded.snapshot);
    return result;
  }
  for (const decision::catalog::CatalogError& e : loaded.errors) result.errors.push_back(e.to_string());
  return result;
}

}  // namespace service
