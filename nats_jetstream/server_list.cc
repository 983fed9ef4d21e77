#include "nats_jetstream/server_list.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/check.h"

namespace nats_jetstream {

namespace {
constexpr std::string_view kScheme = "nats://";

absl::Status bad(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("'", std::string(text), "': ", std::string(why)));
}

absl::StatusOr<std::string> parse_server(std::string_view whole, std::string_view entry) {
  if (entry.empty()) return bad(whole, "empty entry in the server list");
  const size_t colon = entry.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == entry.size()) {
    return bad(whole, absl::StrCat("'", std::string(entry), "' has no port (host:port)"));
  }
  const std::string_view host = entry.substr(0, colon);
  const std::string_view port_text = entry.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535) {
    return bad(whole, absl::StrCat("'", std::string(entry), "': port must be 1 to 65535"));
  }
  if (host.empty()) return bad(whole, absl::StrCat("'", std::string(entry), "' has no host"));
  for (char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_' || c == ':' || c == '[' || c == ']';
    if (!ok) return bad(whole, absl::StrCat("'", std::string(entry), "': not a host name or address"));
  }
  return absl::StrCat(std::string(kScheme), std::string(host), ":", port);
}

absl::StatusOr<ServerList> parse_servers(std::string_view whole, std::string_view list) {
  if (list.empty()) return bad(whole, "no servers: nats://host:port[,host:port...]");
  ServerList servers;
  while (true) {
    const size_t comma = list.find(',');
    absl::StatusOr<std::string> url = parse_server(whole, list.substr(0, comma));
    if (!url.ok()) return url.status();
    servers.urls.push_back(*std::move(url));
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return servers;
}
}  // namespace

absl::StatusOr<ServerList> parse_server_list(std::string_view text) {
  if (!text.starts_with(kScheme)) return bad(text, "must start with nats://");
  const std::string_view rest = text.substr(kScheme.size());
  if (rest.find('/') != std::string_view::npos) return bad(text, "a server list has no path");
  return parse_servers(text, rest);
}

absl::StatusOr<ServerList> parse_named_server_list(std::string_view text) {
  if (!text.starts_with(kScheme)) return bad(text, "must start with nats://");
  const std::string_view rest = text.substr(kScheme.size());
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return bad(text, "no name: nats://host:port[,host:port...]/<name>");
  const std::string_view name = rest.substr(slash + 1);
  if (name.empty()) return bad(text, "empty name after the last '/'");
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return bad(text, "the name may hold letters, digits, '-' and '_' only");
  }
  absl::StatusOr<ServerList> servers = parse_servers(text, rest.substr(0, slash));
  if (!servers.ok()) return servers.status();
  servers->name = std::string(name);
  return servers;
}

std::string describe(const ServerList& servers) {
  std::vector<std::string> hosts;
  for (const std::string& url : servers.urls) {
    DECISIOND_CHECK(url.starts_with(kScheme));  // as parse_servers writes them
    hosts.push_back(url.substr(kScheme.size()));
  }
  return absl::StrCat(std::string(kScheme), absl::StrJoin(hosts, ","));
}

}  // namespace nats_jetstream
