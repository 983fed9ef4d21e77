#pragma once
// The way from a request to its user's state (frequency caps and pending serves), below the
// endpoints (docs/architecture.md, "User state"). Where that state lives is chosen once per
// process, where the core is wired: on the core that owns the user (embedded mode,
// owner_core_route.h: the request is handed to that core), or in the store every node
// shares (cluster mode, shared_store_route.h: the request waits on this core while the
// store reads the user's state). A handler asks reach() and either decides now with
// state(), or lets the request go; it comes back through RouteUser::arrive(), on whichever
// core the state is then, and reach() answers kHere. The handler never learns which.
#include <cstdint>
#include <optional>

#include "caps/cap_store.h"
#include "decision/user_state/forwarded_request.h"
#include "http/request.h"
#include "http/response.h"
#include "runtime/check.h"
#include "runtime/core_counter.h"

namespace decision::user_state {

// What a handler does with a request that reached its user's state.
class RouteUser {
 public:
  virtual ~RouteUser() = default;
  // request went to its user's state and is here with it: serve it again from the start,
  // writing into reply; reach() answers kHere for it. travelled is the request as it went
  // (the one reach() named in Reached::travelling), alive during the call.
  virtual void arrive(const http::Request& request, http::Response& reply, const ForwardedRequest& travelled) = 0;
};

struct StateAsk {
  uint64_t user_key = 0;
  // Some candidate of the request carries a cap: false lets a route that would have to
  // wait for the state decide without it (the cap rule reads caps of capped ads only).
  bool reads_caps = true;
  // The caller can keep its parse of the request while the request waits on this core,
  // so its body need not be copied to be parsed again (decision/endpoint/kept_intakes.h).
  bool can_keep_parse = false;
};

enum class Reach : uint8_t {
  kHere,     // state() is the user's, or what stands for it when it cannot be had: decide now
  kAway,     // the request went to the state with its reply deferred; arrive() follows
  kRefused,  // at a bound: nothing follows; the caller sheds (503), which undoes any deferral
};

struct Reached {
  Reach reach = Reach::kHere;
  // kAway: the request as it went, as arrive() will name it.
  const ForwardedRequest* travelling = nullptr;
  // kAway: it waits on this core, and the caller keeps its parse for arrive() when it said
  // it could (StateAsk::can_keep_parse); false when it went to another core.
  bool waits_here = false;
};

// Per core and route, single writer; read by metrics scrapes (route_metrics.h). The same
// families in both modes, labelled by where the state lives.
struct RouteCounters {
  runtime::CoreCounter reads;    // a user's cap state read for a request (the owner's, or the store's)
  runtime::CoreCounter refused;  // the state could not be had: shed (owner core at its bound) or
                                 // decided without the user's capped ads (store at its bound or late)
};

class UserStateRoute {
 public:
  virtual ~UserStateRoute() = default;
  // Whose requests arrive (RouteUser::arrive): bound once, by the handler that uses the
  // route, before any request.
  void serve(RouteUser& user) {
    DECISIOND_CHECK_MSG(user_ == nullptr, "a user-state route serves one handler");
    user_ = &user;
  }
  // Either the state is here (kHere, read state()), or the request goes to it with response
  // deferred (kAway), or it cannot (kRefused: the caller answers at once).
  virtual Reached reach(const StateAsk& ask, const http::Request& request, http::Response& response) = 0;
  // The user's state after kHere, until the next reach() on this core.
  virtual const caps::CapReader& state() const = 0;
  // A capped ad served to user_key (with a serve window, pending until its impression).
  virtual void hold_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) = 0;
  // For explaining where a request ran: the core that owns user_key's state, when a core
  // does; and the core that received the request being served now.
  virtual std::optional<uint32_t> owner_core(uint64_t user_key) const = 0;
  virtual uint32_t received_on_core() const = 0;
  virtual const RouteCounters& counters() const = 0;

 protected:
  RouteUser& user() const {
    DECISIOND_CHECK_MSG(user_ != nullptr, "a request arrived on a route no handler serves");
    return *user_;
  }

 private:
  RouteUser* user_ = nullptr;
};

}  // namespace decision::user_state
