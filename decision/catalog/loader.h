#pragma once
// Catalog loading: parse, validate everything, resolve references, build the indexes.
// Every error is reported (up to kMaxReportedErrors), each with the JSON path of the value
// at fault, so an operator fixes a file in one round. A catalog with any error yields no
// snapshot: the caller keeps the one it has. Runs off the request path; allocates freely.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "decision/catalog/catalog_error.h"
#include "decision/catalog/snapshot.h"

namespace decision::catalog {

struct LoadResult {
  std::shared_ptr<const CatalogSnapshot> snapshot;  // null exactly when errors is not empty
  std::vector<CatalogError> errors;                 // in the order the loader meets them

  bool ok() const { return snapshot != nullptr; }
  // OK, or INVALID_ARGUMENT listing the errors one per line.
  absl::Status status() const;
};

struct LoadOptions {
  // Checks a targeting.custom CEL source (docs/catalog.md: it must compile). A non-OK status
  // refuses the catalog with its message at the expression's path. Unset: sources are kept
  // unchecked for cel/ to compile.
  std::function<absl::Status(std::string_view source)> check_custom;
};

LoadResult load_catalog(std::string_view json_text, const LoadOptions& options = {});
// Reads the file (at most kMaxCatalogBytes), then load_catalog.
LoadResult load_catalog_file(const std::string& path, const LoadOptions& options = {});

}  // namespace decision::catalog
