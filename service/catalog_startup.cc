#include "service/catalog_startup.h"

#include "decision/catalog/loader.h"
#include "decision/targeting/cel/compile.h"
#include "service/demo_catalog.h"

namespace service {

StartupCatalog load_startup_catalog(const ServiceConfig& config) {
  StartupCatalog result;
  decision::catalog::LoadResult loaded;
  // A custom rule that does not compile refuses the catalog, with its position.
  decision::catalog::LoadOptions options;
  options.check_custom = [](std::string_view source) { return decision::cel::compile(source).status(); };
  if (config.catalog_path.empty()) {
    result.source = "built-in demo catalog";
    loaded = decision::catalog::load_catalog(demo_catalog_json(), options);
  } else {
    result.source = config.catalog_path;
    loaded = decision::catalog::load_catalog_file(config.catalog_path, options);
  }
  if (loaded.ok()) {
    result.snapshot = std::move(loaded.snapshot);
    return result;
  }
  for (const decision::catalog::CatalogError& e : loaded.errors) result.errors.push_back(e.to_string());
  return result;
}

}  // namespace service
