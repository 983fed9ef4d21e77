#pragma once
// What tracking tests share: a catalog with frequency caps, a state directory that
// outlives one server process (restarts, kill -9), decisions read for their tracking
// tokens, and the event log read back as lines.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"

namespace integration {

// A catalog of placement 7 "home_top", with one priority ("standard"), advertiser 1 and
// template 1 for its ads: ads holds the members of its "ads" array.
std::string home_top_catalog_json(std::string_view revision, std::string_view ads);

// Placement 7 "home_top": ad 1 capped at 2 an hour, ad 2 capped at 1 a day (it has no
// click URL), ad 3 uncapped with a custom event "add_to_cart", all in one tier.
std::string capped_catalog_json();

// A directory for --state-dir, removed with the object; survives the processes using it.
class StateDir {
 public:
  StateDir();
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;
  ~StateDir();
  const std::string& path() const { return path_; }
  std::string flag() const { return "--state-dir=" + path_; }

 private:
  std::string path_;
};

// The tracking tokens of a decision reply, by kind ("impression", "click", or a custom event
// name), for every creative in order; with the creative's ad id.
struct CreativeTokens {
  std::string ad_id;  // "ad_<id>"
  std::string impression;
  std::string click;
  std::map<std::string, std::string> custom;
};
std::vector<CreativeTokens> tokens_of(const std::string& decision_body);

// POST /v1/decision for user (empty: none) on placement home_top with count; on a new
// connection when fresh (so successive calls land on either core).
CurlReply decide(const ServerProcess& server, std::string_view user, int count, bool fresh_connection = true,
                 std::string_view extra_json = "");
// GET /v1/tracking?t=token (plus extra query), on a new connection.
CurlReply call_tracking(const ServerProcess& server, std::string_view token, std::string_view extra_query = "",
                        const std::vector<std::string>& headers = {});

struct LogLine {
  std::string kind;
  uint64_t ad = 0;
  std::string user;  // empty: none
  bool has_user = false;
  bool duplicate = false;
  std::string token;
  std::string store;  // cluster mode: "unapplied", "reapplied" or empty
  std::string invalid;  // "robot", or empty
  std::string event;
  int64_t code = -1;
  std::string core_dir;  // the core directory it was read from
};
// Every whole line of every core's event log under state_dir.
std::vector<LogLine> read_event_log(const std::string& state_dir);

}  // namespace integration
