#pragma once
// Several decisiond nodes in cluster mode for tests (docs/cluster.md): each its own process
// and state directory, all with one keys.json (so any node opens any node's tokens) and one
// catalog, their caps in the given Redis Cluster.
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"

namespace integration {

class ClusterNodes {
 public:
  // Starts count nodes with --caps-store=caps_store_url, --caps-timeout=1s, --shed-lag=0
  // and the extra flags (which win); ok() says whether every one serves.
  ClusterNodes(int count, const std::string& caps_store_url, std::vector<std::string> extra = {});
  // One node per URL, each with its own --caps-store.
  ClusterNodes(std::vector<std::string> caps_store_urls, std::vector<std::string> extra = {});
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  size_t size() const { return nodes_.size(); }
  ServerProcess& node(size_t i) { return *nodes_[i % nodes_.size()]; }
  const std::string& state_dir(size_t i) const { return dirs_[i % dirs_.size()]->path(); }
  // Stops node i with signal and starts it again on the same state directory.
  bool restart(size_t i, int signal);
  // The same, with another --caps-store from then on.
  bool restart(size_t i, int signal, const std::string& caps_store_url);
  // The extra flags of every node started from then on (a restart).
  void set_extra_flags(std::vector<std::string> extra) { extra_ = std::move(extra); }
  // Whether node i's cores all see the cluster up (decisiond_redis_cluster_state 1 on each),
  // polled for up to 10 s: a node serves at once, its store connects in the background.
  bool wait_connected(size_t i);
  // Every node's event log lines, in node order.
  std::vector<LogLine> all_lines() const;

 private:
  std::vector<std::string> flags_for(size_t i) const;

  std::vector<std::string> caps_store_urls_;  // by node
  std::vector<std::string> extra_;
  TempFile catalog_{"catalog.json", capped_catalog_json()};
  std::vector<std::unique_ptr<StateDir>> dirs_;
  std::vector<std::unique_ptr<ServerProcess>> nodes_;
  std::string error_;
};

}  // namespace integration
