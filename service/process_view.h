#pragma once
// What the admin plane of any core may read about the whole process. Filled before the
// cores start serving (each core writes its own slot before the start barrier) and never
// changed after, except for counters, which are single-writer.
#include <cstdint>
#include <string>
#include <vector>

#include "decision/catalog/snapshot.h"
#include "http/server_metrics.h"
#include "service/flags.h"

namespace service {

class CoreServices;

struct ProcessView {
  explicit ProcessView(const ServiceConfig& config) : config(config), cores(config.cores, nullptr) {}

  const ServiceConfig& config;
  std::vector<CoreServices*> cores;
  int64_t started_wall_s = 0;
  std::string io_uring_mode;
  // The catalog in force and when it was loaded. Fixed for the process's life until
  // catalog reload (POST /admin/catalog, SIGHUP) publishes snapshots to the cores.
  std::shared_ptr<const decision::catalog::CatalogSnapshot> catalog;
  std::string catalog_source;
  int64_t catalog_loaded_wall_s = 0;
};

}  // namespace service
