#pragma once
// A decision handed to the core that owns its user (DESIGN section 1: caps are read only by
// the owner). The receiving core copies what the decision needs, lends the object to the
// owner with a message, and gets it back with the reply written in; the client's
// connection waits on its ticket meanwhile.
//
// Why hand over the whole decision rather than ask the owner for the counts of the capped
// candidates: the owner then decides with its own partition in one step, so a decision
// costs two messages whatever the catalog; asking for counts first would need the
// candidates of every placement (up to 20 x 200 ads) shipped over, and a second selection
// pass once the counts are back. The price is parsing the body twice (about a microsecond
// for a typical request), measured in docs/caps.md.
#include <cstdint>
#include <string>

#include "http/reply_ticket.h"
#include "http/response.h"

namespace decision::endpoint {

class DecisionHandler;

struct ForwardedDecision {
  // Set and read by the receiving (home) core only.
  http::ReplyTicket ticket;
  DecisionHandler* home = nullptr;
  uint32_t home_core = 0;
  uint32_t owner_core = 0;
  // The request as the owner needs it: the body and the headers a decision reads.
  std::string body;
  std::string version;  // X-Decision-Version, when has_version
  bool has_version = false;
  std::string accept_language;  // Accept-Language, when has_accept_language
  bool has_accept_language = false;
  // Written by the owner core while it holds the object.
  http::Response reply;
};

}  // namespace decision::endpoint
