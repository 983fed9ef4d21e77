#pragma once
// What the tests of catalog publication through NATS share (docs/catalog-publication.md):
// the decisiond-catalog tool run to its end, catalogs from gen-catalog, a node's revision
// and readiness polled under a deadline, and revisions written the way a tool of another
// version might (bytes a node refuses), through the layout the product uses.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/integration/nats_cluster/nats_cluster_fixture.h"
#include "tests/integration/redis_cluster/child_command.h"
#include "tests/integration/readyz.h"
#include "tests/integration/server_process.h"

namespace integration {

// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kToolTimeout{60000};
inline constexpr std::chrono::milliseconds kRevisionTimeout{30000};

// "nats://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/<name>".
std::string catalog_url(const NatsCluster& nats, const std::string& name);

// decisiond-catalog with these arguments.
CommandRun run_catalog_tool(const std::vector<std::string>& args);

// gen-catalog's catalog of that many ads (its seed changes the bytes and the revision).
std::string generated_catalog(int ads, int seed);

// decisiond_catalog_revision, or -1 when the scrape failed.
double served_revision(const ServerProcess& node);
// Until every node serves revision (decisiond_catalog_revision) or timeout; whether they all do.
bool wait_for_revision(const std::vector<ServerProcess*>& nodes, uint64_t revision,
                       std::chrono::milliseconds timeout = kRevisionTimeout);
// The status of GET /readyz (0 when it did not answer).
long readyz_status(const ServerProcess& node);
// Until the node's stderr holds text or timeout.
bool wait_for_log(ServerProcess& node, const std::string& text, std::chrono::milliseconds timeout = kRevisionTimeout);

// A revision stored as decisiond-catalog stores one (its chunks, then the record over the
// current one), without the builder's check; with a wrong SHA-256 in the record when
// corrupt_sha256. The revision written, or an error text.
struct RawPublish {
  uint64_t revision = 0;
  std::string error;
};
RawPublish publish_unchecked(const NatsCluster& nats, const std::string& name, const std::string& bytes,
                             bool corrupt_sha256 = false);

}  // namespace integration
