#pragma once
// What the admin plane of any core may read about the whole process. Filled before the
// cores start serving (each core writes its own slot before the start barrier) and never
// changed after, except for counters, which are single-writer.
#include <cstdint>
#include <string>
#include <vector>

#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "decision/versions/version_table.h"
#include "http/server_metrics.h"
#include "service/flags.h"
#include "tracking/endpoint/tracking_handler.h"
#include "tracking/key_ring.h"
#include "tracking/state/core_state.h"

namespace service {

class CoreServices;

struct ProcessView {
  ProcessView(const ServiceConfig& config, const decision::versions::VersionTable& versions,
              const tracking::KeyRing& keys)
      : config(config),
        versions(versions),
        keys(keys),
        cores(config.cores, nullptr),
        decision_peers(config.cores, nullptr),
        tracking_peers(config.cores, nullptr) {}

  const ServiceConfig& config;
  const decision::versions::VersionTable& versions;  // the lifecycle table in force
  const tracking::KeyRing& keys;                     // tracking and VAST tag keys
  uint64_t seed = 0;  // of the per-core random generators: --seed, or drawn at start
  decision::targeting::GeoSources geo;  // owned by main, loaded before the cores start
  std::vector<CoreServices*> cores;
  // Each core's handlers, for addressing cross-core messages; each core fills its own slot
  // during set-up, before any core serves.
  std::vector<decision::endpoint::DecisionHandler*> decision_peers;
  std::vector<tracking::endpoint::TrackingHandler*> tracking_peers;
  // Rebuilt at start by recovery; each core takes its own during set-up.
  std::vector<tracking::state::CoreState>* recovered = nullptr;
  int64_t started_wall_s = 0;
  int64_t started_wall_ns = 0;
  std::string io_uring_mode;
  // The catalog in force and when it was loaded. Fixed for the process's life until
  // catalog reload (POST /admin/catalog, SIGHUP) publishes snapshots to the cores.
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog;
  std::string catalog_source;
  int64_t catalog_loaded_wall_s = 0;
};

}  // namespace service
