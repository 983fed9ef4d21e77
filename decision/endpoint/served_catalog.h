#pragma once
// A catalog as the cores serve it: the snapshot and what is derived from it once, off the
// request path: the response writer's pre-escaped text and the compiled `custom` rules. Built off the request path, published to every core as one
// shared_ptr, and freed when the last core lets go of it (a catalog swap replaces the
// pointer each core holds, never the object).
#include <memory>

#include "decision/catalog/snapshot.h"
#include "decision/response/catalog_text.h"
#include "decision/targeting/custom/custom_programs.h"

namespace decision::endpoint {

struct ServedCatalog {
  explicit ServedCatalog(std::shared_ptr<const catalog::CatalogSnapshot> loaded)
      : snapshot(std::move(loaded)), text(*snapshot), custom_programs(snapshot->ads()) {}

  const std::shared_ptr<const catalog::CatalogSnapshot> snapshot;
  const response::CatalogText text;  // views into *snapshot
  const targeting::CustomPrograms custom_programs;
};

inline std::shared_ptr<const ServedCatalog> make_served_catalog(
    std::shared_ptr<const catalog::CatalogSnapshot> snapshot) {
  return std::make_shared<const ServedCatalog>(std::move(snapshot));
}

}  // namespace decision::endpoint
