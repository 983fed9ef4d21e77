#pragma once
// A decision request handed to the core that owns its user (docs/caps.md: caps are read
// only by the owner), as the Work of a cross-core ask (runtime/cross_core_asks.h). The
// receiving core copies what a decision reads, lends the object to the owner, and gets it
// back with the reply written in; the client's connection waits on its ticket meanwhile.
// Decisions and explains both travel so (decision_ask.h, explain/explain_ask.h).
//
// Why hand over the whole request rather than ask the owner for the counts of the capped
// candidates: the owner then decides with its own partition in one step, so a decision
// costs two messages whatever the catalog; asking for counts first would need the
// candidates of every placement (up to 20 x 200 ads) shipped over, and a second selection
// pass once the counts are back. The price is parsing the body twice (about a microsecond
// for a typical request), measured in docs/caps.md.
#include <string>
#include <string_view>

#include "http/reply_ticket.h"
#include "http/request.h"
#include "http/response.h"

namespace decision::user_state {

class ForwardedRequest {
 public:
  // On the asking core: defers response and copies the body (unless with_body is false: the
  // request stays parsed elsewhere, kept_intakes.h) and the headers a decision reads.
  // Strings keep their capacity from ask to ask, so a warm pool does not allocate.
  void capture(const http::Request& request, http::Response& response, bool with_body = true);
  // On the owner core: the request as the asking core received it, at path; valid while
  // this object is held. The reply to write is reply().
  http::Request replay(std::string_view path) const;
  http::Response& reply() { return reply_; }
  const http::Response& reply() const { return reply_; }

  // Back on the asking core: sends the reply to the waiting connection. False when the
  // client has gone.
  bool complete();

 private:
  http::ReplyTicket ticket_;
  std::string body_;
  std::string version_;  // X-Decision-Version, when has_version_
  bool has_version_ = false;
  std::string accept_language_;  // Accept-Language, when has_accept_language_
  bool has_accept_language_ = false;
  runtime::IpAddress client_address_;  // the request's client travels with its body
  http::Response reply_;
};

}  // namespace decision::user_state
