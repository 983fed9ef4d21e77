#pragma once
// decisiond-catalog status: the name's latest revision and what each node reports serving
// (service/catalog_updates/nats_catalog_layout.h), printed one line per node or as JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "service/catalog_updates/nats_catalog_layout.h"
#include "tools/decisiond-catalog/command_line.h"

namespace tools::decisiond_catalog {

struct CatalogStatus {
  std::string name;
  std::optional<service::RevisionRecord> latest;  // none: nothing published under the name
  std::vector<service::NodeReport> nodes;          // by node id
  std::vector<std::string> unreadable;             // reports that do not parse, one line each
  int64_t now_unix_ms = 0;
};

// Errors: NATS unreachable or refusing.
absl::StatusOr<CatalogStatus> read_status(const CommandLine& line);

// What a node is at, against the latest revision: "current", "behind", "waiting" (no
// revision yet), "upload" (an upload replaced the revision), or "silent" when its last
// report is older than three report intervals (the node stopped, or cannot reach NATS).
std::string node_state(const service::NodeReport& node, const CatalogStatus& status);

// A line for the latest revision, then a table (NODE REVISION STATE LOADED REPORTED
// DETAIL: the last revision that failed on the node and why, or why it waits); or {"name":..,"latest":{..}|null,"nodes":[{..,"state":..}]}.
std::string status_text(const CatalogStatus& status, bool json);

}  // namespace tools::decisiond_catalog
