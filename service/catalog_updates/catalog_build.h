#pragma once
// A catalog built for serving, off the request path: read, validated, indexed, its text
// pre-escaped and its CEL rules compiled (decision/endpoint/served_catalog.h). Used at
// start and for every update (SIGHUP, POST /admin/catalog): one way in, so a catalog the
// server would refuse at start it refuses at runtime too, with the same errors.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decision/catalog/catalog_error.h"
#include "decision/endpoint/served_catalog.h"

namespace service {

struct BuiltCatalog {
  std::shared_ptr<const decision::endpoint::ServedCatalog> served;  // null when refused
  std::vector<decision::catalog::CatalogError> errors;  // every error when refused, in file order
  std::string source;        // the file, "POST /admin/catalog", or "built-in demo catalog"
  int64_t duration_ms = 0;   // reading to compiled rules

  bool ok() const { return served != nullptr; }
};

// path empty: the built-in demo catalog. labels: the process's placement labels, which the
// catalog's keys join if it is valid (decision/endpoint/placement_labels.h).
BuiltCatalog build_catalog_from_file(const std::string& path, decision::endpoint::PlacementLabels& labels);
BuiltCatalog build_catalog_from_text(std::string_view json_text, std::string source,
                                     decision::endpoint::PlacementLabels& labels);

// A catalog without ads: what a node started with --catalog=nats://... serves, unready,
// until its first revision is built.
BuiltCatalog build_empty_catalog(std::string source, decision::endpoint::PlacementLabels& labels);

// A refused catalog in one line, for where every error does not fit (a node's report to
// decisiond-catalog status): "refused with N error(s), the first: <path>: <message>".
std::string refusal_summary(const BuiltCatalog& built);

// Every error of a refused catalog, each after "\n  ": the tail of the refusal's one log
// line, which an operator reads back as the list it always was.
std::string listed_errors(const BuiltCatalog& built);

}  // namespace service
