#include "service/cluster_flags.h"

#include <unistd.h>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "service/flag_error.h"
#include "service/secret_file.h"

ABSL_FLAG(std::string, node_id, "", "this node's name in events and metrics (default: the host name)");
ABSL_FLAG(std::string, caps_store, "local",
          "where frequency caps, pending serves and impression dedup live: local (in process) or "
          "redis://host:port[,host:port...] (seed nodes of a Redis Cluster shared by several nodes)");
ABSL_FLAG(std::string, caps_store_user, "", "Redis ACL user of --caps-store (default: the default user)");
ABSL_FLAG(std::string, caps_store_password_file, "",
          "file holding the password of --caps-store (mode 0600 or stricter; never on the command line)");
ABSL_FLAG(absl::Duration, caps_timeout, absl::Milliseconds(25),
          "how long a decision waits for the cap store before it decides without its capped ads");
ABSL_FLAG(absl::Duration, cap_serve_window, absl::ZeroDuration(),
          "how long a served capped ad counts against its caps as pending until its impression arrives (0 = off)");

namespace service {

namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "decisiond";
  return name;
}

}  // namespace

absl::Status resolve_cluster_flags(ClusterSettings& config) {
  config.node_id = absl::GetFlag(FLAGS_node_id);
  if (config.node_id.empty()) config.node_id = host_name();
  const std::string store = absl::GetFlag(FLAGS_caps_store);
  if (store != "local") {
    if (!absl::StartsWith(store, "redis://")) {
      return invalid_flag("caps-store", "must be local or redis://host:port[,host:port...]");
    }
    absl::StatusOr<std::vector<redis_cluster::NodeAddress>> seeds = redis_cluster::parse_seed_list(store);
    if (!seeds.ok()) return invalid_flag("caps-store", seeds.status().message());
    config.caps_store_url = store;
    config.caps_store_seeds = *std::move(seeds);
  }
  config.caps_store_user = absl::GetFlag(FLAGS_caps_store_user);
  const std::string password_file = absl::GetFlag(FLAGS_caps_store_password_file);
  if (!password_file.empty()) {
    absl::StatusOr<std::string> password = read_secret_file("caps-store-password-file", password_file);
    if (!password.ok()) return password.status();
    config.caps_store_password = *std::move(password);
  }
  if (!config.shared_caps() && (!config.caps_store_user.empty() || !password_file.empty())) {
    return invalid_flag(config.caps_store_user.empty() ? "caps-store-password-file" : "caps-store-user",
                   "needs --caps-store=redis://...");
  }
  config.caps_timeout = absl::GetFlag(FLAGS_caps_timeout);
  if (config.caps_timeout < absl::Milliseconds(1) || config.caps_timeout > absl::Seconds(10)) {
    return invalid_flag("caps-timeout", "must be from 1ms to 10s, such as 25ms");
  }
  config.cap_serve_window = absl::GetFlag(FLAGS_cap_serve_window);
  if (config.cap_serve_window < absl::ZeroDuration() || config.cap_serve_window > absl::Hours(24) ||
      absl::Trunc(config.cap_serve_window, absl::Seconds(1)) != config.cap_serve_window) {
    return invalid_flag("cap-serve-window", "must be whole seconds from 0 (off) to 24h, such as 30s");
  }
  return absl::OkStatus();
}

}  // namespace service
