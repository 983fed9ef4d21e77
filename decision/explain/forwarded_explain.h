#pragma once
// An explain handed to the core that owns its user, as a decision is
// (decision/endpoint/forwarded_decision.h): frequency caps are read only by their owner
// (DESIGN section 1), so an explain that reads them runs there. The receiving core lends
// the object with a message and gets it back, reply written in, with another.
#include <cstdint>
#include <string>

#include "http/reply_ticket.h"
#include "http/response.h"

namespace decision::explain {

class ExplainHandler;

struct ForwardedExplain {
  // Set and read by the receiving (home) core only.
  http::ReplyTicket ticket;
  ExplainHandler* home = nullptr;
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

}  // namespace decision::explain
