#pragma once
// A decision waiting for its user's cap state from the shared cap store (cluster mode,
// docs/cluster.md): the request as it arrived (forwarded_request.h), kept while the store
// answers; then the handler decides again with the state that came back, or without its
// capped ads when none came in time.
#include "caps/shared_cap_store.h"
#include "decision/endpoint/forwarded_request.h"

namespace decision::endpoint {

class DecisionHandler;

class CapReadWait final : public ForwardedRequest, public caps::CapReadDone {
 public:
  explicit CapReadWait(DecisionHandler& handler) : handler_(handler) {}
  void on_caps_read(const caps::CapReader* state) override;

 private:
  DecisionHandler& handler_;
};

}  // namespace decision::endpoint
