#include "tracking/impression_sink/shared_store_impressions.h"

namespace tracking::impression_sink {

Taken SharedStoreImpressions::take(const impressions::ImpressionNotice& notice, http::Response& response) {
  // With no reply free to hold, the store is not waited for: the line says unapplied now.
  HeldReply* held = held_.take();
  if (counter_.count(notice, held)) {
    if (held != nullptr) held_.give_back(held);
    return Taken::kLogged;
  }
  held->hold(response);
  return Taken::kHeld;
}

}  // namespace tracking::impression_sink
