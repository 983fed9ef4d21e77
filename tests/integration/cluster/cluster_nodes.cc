#include "tests/integration/cluster/cluster_nodes.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "tests/integration/metrics_scrape.h"

namespace integration {

ClusterNodes::ClusterNodes(int count, const std::string& caps_store_url, std::vector<std::string> extra)
    : ClusterNodes(std::vector<std::string>(count, caps_store_url), std::move(extra)) {}

ClusterNodes::ClusterNodes(std::vector<std::string> caps_store_urls, std::vector<std::string> extra)
    : caps_store_urls_(std::move(caps_store_urls)), extra_(std::move(extra)) {
  const size_t count = caps_store_urls_.size();
  for (size_t i = 0; i < count; ++i) dirs_.push_back(std::make_unique<StateDir>());
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) {
      // The first node created keys.json: every other node holds the same file (docs/keys.md).
      const std::filesystem::path keys = std::filesystem::path(dirs_[0]->path()) / "keys.json";
      const std::filesystem::path copy = std::filesystem::path(dirs_[i]->path()) / "keys.json";
      std::filesystem::copy_file(keys, copy, std::filesystem::copy_options::overwrite_existing);
      chmod(copy.c_str(), 0600);
    }
    nodes_.push_back(std::make_unique<ServerProcess>(standard_flags(flags_for(i))));
    if (!nodes_.back()->serving()) {
      error_ = "node " + std::to_string(i) + ": " + nodes_.back()->start_error();
      return;
    }
  }
}

std::vector<std::string> ClusterNodes::flags_for(size_t i) const {
  // A patient store and no overload shedding: these tests check what is counted, on
  // machines as slow as a sanitizer build under load; a test of the deadline or of shedding
  // sets its own (later flags win).
  std::vector<std::string> flags = {"--catalog=" + catalog_.path(), dirs_[i]->flag(), "--events-flush=100ms",
                                    "--node-id=node" + std::to_string(i), "--caps-store=" + caps_store_urls_[i],
                                    "--caps-timeout=1s", "--shed-lag=0"};
  flags.insert(flags.end(), extra_.begin(), extra_.end());
  return flags;
}

bool ClusterNodes::restart(size_t i, int signal, const std::string& caps_store_url) {
  caps_store_urls_[i] = caps_store_url;
  return restart(i, signal);
}

bool ClusterNodes::restart(size_t i, int signal) {
  nodes_[i]->send_signal(signal);
  if (!nodes_[i]->wait_for_exit()) return false;
  nodes_[i] = std::make_unique<ServerProcess>(standard_flags(flags_for(i)));
  return nodes_[i]->serving();
}

bool ClusterNodes::wait_connected(size_t i) {
  // Each core on its own: a sum over cores would take one core starting (0) and the other
  // partial (2) for both up, and a decision on either would then fail closed.
  const auto every_core_up = [](const std::string& page) {
    for (const char* core : {"0", "1"}) {  // standard_flags: two cores
      if (sum_samples(page, "decisiond_redis_cluster_state", {{"core", core}}) != 1.0) return false;
    }
    return true;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (every_core_up(scrape_metrics(node(i)))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::vector<LogLine> ClusterNodes::all_lines() const {
  std::vector<LogLine> lines;
  for (const auto& dir : dirs_) {
    for (LogLine& l : read_event_log(dir->path())) lines.push_back(std::move(l));
  }
  return lines;
}

}  // namespace integration
