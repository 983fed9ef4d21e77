#include "tracking/impression_sink/owner_core_impressions.h"

#include "runtime/check.h"
#include "tracking/impressions/impression_owner.h"

namespace tracking::impression_sink {

OwnerCoreImpressions::OwnerCoreImpressions(impressions::ImpressionCounter& counter, uint32_t core,
                                           runtime::CoreChannel* channel, runtime::AskPeers<ImpressionAsk>* peers,
                                           uint32_t max_asks)
    : counter_(counter),
      core_(core),
      cores_(channel != nullptr && peers != nullptr ? channel->cores() : 1),
      asks_(*this, channel, peers, max_asks),
      held_(max_asks) {}

Taken OwnerCoreImpressions::take(const impressions::ImpressionNotice& notice, http::Response& response) {
  const std::optional<std::string_view> user =
      notice.has_user ? std::optional<std::string_view>(notice.user_id) : std::nullopt;
  const uint32_t owner = cores_ > 1 ? impressions::impression_owner_core(user, notice.token_id, cores_) : core_;
  if (owner == core_) {
    counter_.count(notice);
    return Taken::kLogged;
  }
  ImpressionAsk* ask = asks_.take(owner);
  if (ask == nullptr) return Taken::kRefused;
  // The pool holds as many as asks can be out at once.
  HeldReply* held = held_.take();
  DECISIOND_CHECK_MSG(held != nullptr, "impressions: an ask taken with no reply free to hold");
  static_cast<impressions::ImpressionNotice&>(*ask) = notice;
  ask->held = held;
  if (!asks_.send(ask)) {
    held_.give_back(held);
    return Taken::kRefused;
  }
  held->hold(response);
  return Taken::kHeld;
}

void OwnerCoreImpressions::serve_ask(ImpressionAsk& ask, uint32_t) { counter_.count(ask); }

bool OwnerCoreImpressions::finish_ask(ImpressionAsk& ask) {
  HeldReply* held = ask.held;
  ask.held = nullptr;
  DECISIOND_CHECK(held != nullptr);
  held->impression_logged();  // the owner core answered once the line was written there
  return true;
}

}  // namespace tracking::impression_sink
