#include "tests/integration/redis_cluster/cluster_view.h"

#include <algorithm>
#include <sstream>

namespace integration {

namespace {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(separator, begin), text.size());
    if (end > begin) parts.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

// "127.0.0.1:7000@17000" or "127.0.0.1:7000@17000,hostname".
uint16_t client_port(const std::string& address) {
  const size_t colon = address.rfind(':', address.find('@'));
  if (colon == std::string::npos) return 0;
  try {
    return static_cast<uint16_t>(std::stoi(address.substr(colon + 1)));
  } catch (...) {
    return 0;
  }
}

bool add_slots(const std::string& field, NodeLine& node) {
  if (!field.empty() && field.front() == '[') {
    node.migrating = true;
    return true;
  }
  try {
    const size_t dash = field.find('-');
    const int first = std::stoi(field.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(field.substr(dash + 1));
    node.slots.emplace_back(first, last);
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

bool NodeLine::has_flag(std::string_view flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

int NodeLine::slot_count() const {
  int count = 0;
  for (const auto& [first, last] : slots) count += last - first + 1;
  return count;
}

bool NodeLine::serves(int slot) const {
  for (const auto& [first, last] : slots) {
    if (slot >= first && slot <= last) return true;
  }
  return false;
}

std::vector<NodeLine> parse_cluster_nodes(std::string_view text) {
  std::vector<NodeLine> nodes;
  for (const std::string& line : split(text, '\n')) {
    const std::vector<std::string> fields = split(line, ' ');
    if (fields.size() < 8) continue;
    NodeLine node;
    node.id = fields[0];
    node.port = client_port(fields[1]);
    node.flags = split(fields[2], ',');
    node.primary_id = fields[3] == "-" ? "" : fields[3];
    bool readable = true;
    for (size_t i = 8; i < fields.size(); ++i) readable = readable && add_slots(fields[i], node);
    if (readable) nodes.push_back(std::move(node));
  }
  return nodes;
}

std::string info_field(std::string_view info, std::string_view name) {
  for (std::string line : split(info, '\n')) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > name.size() && line.compare(0, name.size(), name) == 0 && line[name.size()] == ':') {
      return line.substr(name.size() + 1);
    }
  }
  return {};
}

std::string topology(const std::vector<NodeLine>& nodes) {
  std::vector<std::string> entries;
  for (const NodeLine& node : nodes) {
    std::ostringstream entry;
    entry << node.id << " " << (node.is_primary() ? "master" : node.has_flag("slave") ? "slave" : "unknown") << " "
          << (node.primary_id.empty() ? "-" : node.primary_id);
    for (const auto& [first, last] : node.slots) entry << " " << first << "-" << last;
    entries.push_back(entry.str());
  }
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const std::string& e : entries) out += e + "\n";
  return out;
}

}  // namespace integration
