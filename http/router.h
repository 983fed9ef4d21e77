#pragma once
// Exact-path routing: a handful of fixed routes, matched by a short scan. A path with no
// route is 404 (10004); a known path with another method is 405 (10005) with Allow.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/request.h"
#include "http/response.h"

namespace http {

class Handler {
 public:
  virtual ~Handler() = default;
  virtual void handle(const Request& request, Response& response) = 0;
};

// Which requests an overloaded core sheds, and how early (HttpLimits::shed_lag_ns).
enum class Shedding : uint8_t {
  kNever,  // health, readiness, metrics, operators' writes: always answered
  kLate,   // shed only far behind: calls that carry money (tracking)
  kFirst,  // shed as soon as the core runs behind: the bulk (decisions)
};

// When a reply leaves, against the lines its request wrote on this core (the server's reply
// gate, Server::set_reply_gate; docs/events.md "Writing").
enum class ReplyDurability : uint8_t {
  kWithItsLines,   // in the same submission as their write (one kernel window left)
  kAfterItsLines,  // once their write has completed: what it acknowledges survives kill -9
};

class Router {
 public:
  // name labels the route in metrics.
  void add(Method method, std::string_view path, std::string_view name, Handler& handler,
           Shedding shedding = Shedding::kNever, ReplyDurability durability = ReplyDurability::kWithItsLines);

  // Header lines ("Name: value\r\n"...) every reply to the path carries, whichever of its
  // routes, status or core answers it: a 405, a shed 503 and a deferred reply alike (the
  // connection writes them, not the handler). For headers that belong to the resource,
  // such as CORS (http/cors.h). Replies to requests never routed (unreadable, too large)
  // carry none.
  void add_reply_headers(std::string_view path, std::string_view lines);

  struct Match {
    Handler* handler = nullptr;  // null: the response already holds the 404 or 405
    uint32_t route = 0;          // metrics index; unmatched() when there is no route
    Shedding shedding = Shedding::kNever;
    std::string_view reply_headers;  // the path's add_reply_headers(); lives as long as the router
    ReplyDurability durability = ReplyDurability::kWithItsLines;
  };
  Match match(const Request& request, Response& response) const;

  // Metrics indexes run 0..route_count(); the last one is "unmatched".
  uint32_t route_count() const { return static_cast<uint32_t>(routes_.size()); }
  uint32_t unmatched() const { return route_count(); }
  std::vector<std::string> route_names() const;

 private:
  struct Route {
    Method method;
    std::string path;
    std::string name;
    Handler* handler;
    Shedding shedding;
    ReplyDurability durability;
    // The path's add_reply_headers() lines, kept with the route so a match needs no second
    // look-up.
    std::string reply_headers;
  };
  std::string allow_for(std::string_view path) const;
  std::string_view reply_headers_for(std::string_view path) const;

  std::vector<Route> routes_;
  std::vector<std::pair<std::string, std::string>> allow_;  // path -> "GET, POST"
  // path -> header lines, for routes added later. Set before serving: Match views into
  // routes_ stay valid while neither changes.
  std::vector<std::pair<std::string, std::string>> reply_headers_;
};

}  // namespace http
