#include "tests/integration/cluster/soak_node_directory.h"

namespace integration {

NodeDirectory::NodeDirectory(std::vector<std::string> base_urls) {
  for (std::string& url : base_urls) entries_.push_back({std::move(url), true, 0});
}

NodeDirectory::Lease NodeDirectory::pick(uint32_t wanted) const {
  std::lock_guard lock(mutex_);
  const uint32_t count = static_cast<uint32_t>(entries_.size());
  uint32_t node = wanted % count;
  for (uint32_t step = 0; step < count; ++step) {
    const uint32_t candidate = (wanted + step) % count;
    if (entries_[candidate].up) {
      node = candidate;
      break;
    }
  }
  const Entry& entry = entries_[node];
  // A lease on a node that is down already is disturbed from the start.
  return {node, entry.base_url, entry.up ? entry.generation : entry.generation - 1};
}

bool NodeDirectory::disturbed(const Lease& lease) const {
  std::lock_guard lock(mutex_);
  return entries_[lease.node].generation != lease.generation;
}

void NodeDirectory::take_down(uint32_t node) {
  std::lock_guard lock(mutex_);
  entries_[node].up = false;
  ++entries_[node].generation;
}

void NodeDirectory::bring_up(uint32_t node, std::string base_url) {
  std::lock_guard lock(mutex_);
  entries_[node].base_url = std::move(base_url);
  entries_[node].up = true;
}

}  // namespace integration
