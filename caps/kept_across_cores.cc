#include "caps/kept_across_cores.h"

#include <utility>

namespace caps {

namespace {

uint32_t cores_of(const runtime::CoreChannel* channel, const runtime::AskPeers<KeptNewsAsk>* peers) {
  return channel != nullptr && peers != nullptr ? channel->cores() : 1;
}

}  // namespace

KeptAcrossCores::KeptAcrossCores(KeptImpressions& kept, runtime::CoreChannel* channel,
                                 runtime::AskPeers<KeptNewsAsk>* peers, runtime::TimerWheel& timers)
    : kept_(kept),
      timers_(timers),
      core_(channel != nullptr && peers != nullptr ? channel->core() : 0),
      outbox_(cores_of(channel, peers)),
      batch_out_(cores_of(channel, peers), false),
      asks_(*this, channel, peers, KeptNewsAsk::kPerPeer * cores_of(channel, peers)) {
  if (asks_.wired() && outbox_.size() > 1) kept_.set_listener(this);
}

KeptAcrossCores::~KeptAcrossCores() {
  kept_.set_listener(nullptr);
  if (retry_.armed()) timers_.cancel(retry_);
}

void KeptAcrossCores::start() {
  started_ = true;
  if (asks_.wired()) timers_.schedule(retry_, 0);
}

void KeptAcrossCores::kept_changed(uint64_t user_key, uint64_t ad_id, bool added) {
  for (uint32_t peer = 0; peer < outbox_.size(); ++peer) {
    if (peer == core_) continue;
    outbox_[peer].push_back({user_key, ad_id, added});
    send(peer);
  }
}

void KeptAcrossCores::send_all() {
  for (uint32_t peer = 0; peer < outbox_.size(); ++peer) {
    if (peer != core_) send(peer);
  }
}

void KeptAcrossCores::send(uint32_t peer) {
  if (!started_ || outbox_[peer].empty()) return;
  if (batch_out_[peer]) return;  // sent when that batch comes back
  KeptNewsAsk* news = asks_.take(peer);
  if (news != nullptr) {
    news->peer = peer;
    news->changes.swap(outbox_[peer]);  // the batch's old buffer, emptied, becomes the outbox
    if (asks_.send(news)) {
      batch_out_[peer] = true;
      return;
    }
    // Refused and back in the pool: its changes back in the outbox, in order.
    news->changes.swap(outbox_[peer]);
  }
  if (!retry_.armed()) timers_.schedule(retry_, kRetryMs);
}

void KeptAcrossCores::serve_ask(KeptNewsAsk& news, uint32_t /*from_core*/) {
  for (const KeptChange& c : news.changes) {
    if (c.added) {
      kept_.add_from_peer(c.user_key, c.ad_id);
    } else {
      kept_.remove_from_peer(c.user_key, c.ad_id);
    }
  }
  news.changes.clear();  // back home empty, its capacity kept
}

bool KeptAcrossCores::finish_ask(KeptNewsAsk& news) {
  batch_out_[news.peer] = false;
  send(news.peer);  // what changed meanwhile
  return true;
}

}  // namespace caps
