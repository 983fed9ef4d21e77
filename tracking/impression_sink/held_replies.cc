#include "tracking/impression_sink/held_replies.h"

namespace tracking::impression_sink {

void HeldReply::hold(http::Response& response) {
  reply_ = response;
  ticket_ = response.defer();
}

void HeldReply::impression_logged() {
  // False when the client left meanwhile: the line is written all the same.
  ticket_.complete(reply_);
  owner_.give_back(this);
}

HeldReplies::HeldReplies(uint32_t size) {
  pool_.reserve(size);
  free_.reserve(size);
  for (uint32_t i = 0; i < size; ++i) {
    pool_.push_back(std::make_unique<HeldReply>(*this));
    free_.push_back(pool_.back().get());
  }
}

HeldReply* HeldReplies::take() {
  if (free_.empty()) return nullptr;
  HeldReply* reply = free_.back();
  free_.pop_back();
  return reply;
}

}  // namespace tracking::impression_sink
