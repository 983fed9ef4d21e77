#include "service/catalog_startup.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "decision/catalog/loader.h"
#include "decision/targeting/cel/compile.h"
#include "service/demo_catalog.h"

namespace service {

StartupCatalog load_startup_catalog(const ServiceConfig& config) {
  StartupCatalog result;
  decision::catalog::LoadResult loaded;
  // A custom rule that does not compile refuses the catalog, with its position. Catalogs
  // repeat a few rules over many ads, so each distinct source is compiled once here (and
  // once more by the served catalog, which keeps the programs).
  decision::catalog::LoadOptions options;
  absl::flat_hash_map<std::string, absl::Status> verdicts;
  options.check_custom = [&verdicts](std::string_view source) {
    auto [verdict, inserted] = verdicts.try_emplace(std::string(source));
    if (inserted) verdict->second = decision::cel::compile(source).status();
    return verdict->second;
  };
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
