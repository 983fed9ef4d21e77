#include "caps/redis_store/redis_cap_store.h"

#include <charconv>

#include "caps/redis_store/caps_library.h"
#include "caps/redis_store/redis_keys.h"
#include "runtime/check.h"

namespace caps::redis_store {

using redis_cluster::CallFailure;
using redis_cluster::Reply;

// Objects allocated at start and reused: a call in flight holds one.
template <typename Call>
class RedisCapStore::CallPool {
 public:
  CallPool(uint32_t size, RedisCapStore& store) {
    calls_.reserve(size);
    free_.reserve(size);
    for (uint32_t i = 0; i < size; ++i) {
      calls_.push_back(std::make_unique<Call>(store));
      free_.push_back(calls_.back().get());
    }
  }
  Call* take() {
    if (free_.empty()) return nullptr;
    Call* call = free_.back();
    free_.pop_back();
    return call;
  }
  void give_back(Call* call) {
    DECISIOND_CHECK_MSG(free_.size() < calls_.size(), "a cap store call came back twice");
    free_.push_back(call);
  }

 private:
  std::vector<std::unique_ptr<Call>> calls_;
  std::vector<Call*> free_;
};

class RedisCapStore::ReadCall final : public redis_cluster::Call {
 public:
  explicit ReadCall(RedisCapStore& store) : store_(store) {}
  void on_reply(const Reply& reply) override { store_.finish_read(*this, &reply); }
  void on_failed(CallFailure) override { store_.finish_read(*this, nullptr); }

  CapReadDone* done = nullptr;
  uint64_t user_key = 0;

 private:
  RedisCapStore& store_;
};

class RedisCapStore::ImpressionCall final : public redis_cluster::Call {
 public:
  explicit ImpressionCall(RedisCapStore& store) : store_(store) {}
  void on_reply(const Reply& reply) override { store_.finish_impression(*this, &reply); }
  void on_failed(CallFailure) override { store_.finish_impression(*this, nullptr); }

  ImpressionDone* done = nullptr;
  std::array<char, 16> attempt{};  // hex; a lone impression's SET ... GET is compared with it

 private:
  RedisCapStore& store_;
};

// Not waited for: only counted, and returned to its pool.
class RedisCapStore::PendCall final : public redis_cluster::Call {
 public:
  explicit PendCall(RedisCapStore& store) : store_(store) {}
  void on_reply(const Reply& reply) override {
    if (reply.kind() == Reply::Kind::kInteger && reply.integer() == 1) {
      store_.counters_.pends.add();
    } else {
      store_.counters_.pends_lost.add();  // at the bound of pending serves, or an error
    }
    store_.pends_->give_back(this);
  }
  void on_failed(CallFailure) override {
    store_.counters_.pends_lost.add();
    store_.pends_->give_back(this);
  }

 private:
  RedisCapStore& store_;
};

namespace {

// Decimal arguments, written into a caller's buffer: the client copies arguments before
// call() returns, so they need to live only that long.
class NumberArgs {
 public:
  std::string_view add(int64_t value) {
    char* begin = buffer_ + used_;
    const auto [end, ec] = std::to_chars(begin, buffer_ + sizeof(buffer_), value);
    DECISIOND_CHECK_MSG(ec == std::errc(), "cap store arguments longer than their buffer");
    used_ = static_cast<size_t>(end - buffer_);
    return {begin, static_cast<size_t>(end - begin)};
  }

 private:
  char buffer_[1024];
  size_t used_ = 0;
};

// FCALL name numkeys key key now until attempt window issued ad recent recent_window: 12,
// then 3 per bucketed cap. An ad's caps are bounded by the catalog (at most 8).
constexpr size_t kFixedImpressionArgs = 12;

std::array<char, 16> hex_of(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::array<char, 16> hex{};
  for (int i = 15; i >= 0; --i) {
    hex[i] = kDigits[value & 0xf];
    value >>= 4;
  }
  return hex;
}
constexpr size_t kMaxCapArgs = 3 * 16;

}  // namespace

RedisCapStore::RedisCapStore(redis_cluster::ClusterClient& client, const runtime::Clock& clock,
                             const RedisCapStoreSettings& settings, const KeptImpressions& kept)
    : client_(client),
      clock_(clock),
      settings_(settings),
      kept_(kept),
      reads_(std::make_unique<CallPool<ReadCall>>(settings.max_reads, *this)),
      impressions_(std::make_unique<CallPool<ImpressionCall>>(settings.max_impressions, *this)),
      pends_(std::make_unique<CallPool<PendCall>>(settings.max_pends, *this)) {
  client_.require_library(std::string(caps_library()));
}

RedisCapStore::~RedisCapStore() = default;

bool RedisCapStore::read(uint64_t user_key, CapReadDone& done) {
  ReadCall* call = reads_->take();
  if (call == nullptr) return false;
  call->done = &done;
  call->user_key = user_key;
  const KeyName hash = KeyName::user_hash(user_key);
  const std::string_view args[] = {"HGETALL", hash.view()};
  if (!client_.call(hash.view(), args, deadline_ns(), *call)) {
    reads_->give_back(call);
    return false;
  }
  counters_.reads.add();
  return true;
}

void RedisCapStore::finish_read(ReadCall& call, const Reply* reply) {
  CapReadDone* done = call.done;
  const uint64_t user_key = call.user_key;
  reads_->give_back(&call);
  if (reply == nullptr || reply->kind() != Reply::Kind::kArray) {
    done->on_caps_read(nullptr);
    return;
  }
  const int64_t now_s = clock_.wall_s();
  fetched_.clear(user_key);
  for (size_t i = 0; i + 1 < reply->size(); i += 2) {
    fetched_.add_field(reply->at(i).text(), reply->at(i + 1).text(), now_s);
  }
  kept_.for_user(user_key, [&](uint64_t ad_id, uint32_t count) { fetched_.add_kept(ad_id, count); });
  counters_.reads_answered.add();
  done->on_caps_read(&fetched_);
}

bool RedisCapStore::count_impression(const ImpressionStep& step, ImpressionDone& done) {
  ImpressionCall* call = impressions_->take();
  if (call == nullptr) return false;
  call->done = &done;
  call->attempt = hex_of(step.attempt);
  const std::string_view attempt(call->attempt.data(), call->attempt.size());
  NumberArgs numbers;
  const int64_t until_s = std::max(step.expires_s, step.now_s) + settings_.identity_grace_s;
  bool sent = false;
  if (!step.user_key) {
    // No user: only the identity, which needs no function. GET returns what was there.
    const KeyName key = KeyName::lone_impression(step.impression_id);
    const std::string_view args[] = {"SET", key.view(), attempt, "NX", "EXAT", numbers.add(until_s), "GET"};
    sent = client_.call(key.view(), args, deadline_ns(), *call);
  } else {
    const KeyName hash = KeyName::user_hash(*step.user_key);
    const KeyName identity = KeyName::user_impression(*step.user_key, step.impression_id);
    const std::array<char, 8> ad = le_bytes(step.ad_id);
    std::array<char, 8> recent{};
    std::array<std::array<char, 8>, kMaxCapArgs / 3> bucketed{};
    std::string_view args[kFixedImpressionArgs + kMaxCapArgs];
    size_t n = 0;
    for (std::string_view a : {std::string_view("FCALL"), kImpressionFunction, std::string_view("2"), hash.view(),
                               identity.view()}) {
      args[n++] = a;
    }
    args[n++] = numbers.add(step.now_s);
    args[n++] = numbers.add(until_s);
    args[n++] = attempt;
    args[n++] = numbers.add(settings_.serve_window_s);
    args[n++] = numbers.add(step.issued_s);
    args[n++] = {ad.data(), ad.size()};
    uint32_t longest_recent_s = 0;
    size_t buckets = 0;
    for (const CapRule& cap : step.caps) {
      if (!is_bucketed(cap)) {
        longest_recent_s = std::max(longest_recent_s, cap.window_s);
      } else if (buckets < bucketed.size()) {
        bucketed[buckets++] = le_bytes(bucketed_key(*step.user_key, step.ad_id, cap));
      }
    }
    if (longest_recent_s > 0) recent = le_bytes(recent_key(*step.user_key, step.ad_id));
    args[n++] = longest_recent_s > 0 ? std::string_view(recent.data(), recent.size()) : std::string_view();
    args[n++] = numbers.add(longest_recent_s);
    size_t b = 0;
    for (const CapRule& cap : step.caps) {
      if (!is_bucketed(cap) || b >= buckets) continue;
      args[n++] = {bucketed[b].data(), bucketed[b].size()};
      ++b;
      args[n++] = numbers.add(cap.window_s);
      args[n++] = numbers.add(bucket_width_s(cap));
    }
    sent = client_.call(hash.view(), std::span(args, n), deadline_ns(), *call);
  }
  if (!sent) impressions_->give_back(call);
  return sent;
}

void RedisCapStore::finish_impression(ImpressionCall& call, const Reply* reply) {
  ImpressionDone* done = call.done;
  const std::array<char, 16> attempt = call.attempt;
  impressions_->give_back(&call);
  ImpressionOutcome outcome = ImpressionOutcome::kUnapplied;
  if (reply != nullptr && reply->kind() == Reply::Kind::kInteger) {
    outcome = reply->integer() == 1 ? ImpressionOutcome::kCounted : ImpressionOutcome::kRepeat;
  } else if (reply != nullptr && reply->kind() == Reply::Kind::kNil) {
    outcome = ImpressionOutcome::kCounted;  // SET NX GET: nothing was there, a first sighting
  } else if (reply != nullptr && reply->kind() == Reply::Kind::kString) {
    // The identity was there: counted by this attempt before (its answer lost), or a repeat.
    outcome = reply->text() == std::string_view(attempt.data(), attempt.size()) ? ImpressionOutcome::kCounted
                                                                                  : ImpressionOutcome::kRepeat;
  }
  switch (outcome) {
    case ImpressionOutcome::kCounted: counters_.impressions_counted.add(); break;
    case ImpressionOutcome::kRepeat: counters_.impressions_repeated.add(); break;
    case ImpressionOutcome::kUnapplied: counters_.impressions_unapplied.add(); break;
  }
  done->on_impression_counted(outcome);
}

void RedisCapStore::add_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) {
  if (settings_.serve_window_s <= 0) return;
  PendCall* call = pends_->take();
  if (call == nullptr) {
    counters_.pends_lost.add();
    return;
  }
  NumberArgs numbers;
  const KeyName hash = KeyName::user_hash(user_key);
  const std::array<char, 8> ad = le_bytes(ad_id);
  const std::string_view args[] = {"FCALL", kPendFunction, "1", hash.view(), numbers.add(now_s),
                                   numbers.add(now_s + settings_.serve_window_s), std::string_view(ad.data(), ad.size())};
  if (!client_.call(hash.view(), args, deadline_ns(), *call)) {
    pends_->give_back(call);
    counters_.pends_lost.add();
  }
}

}  // namespace caps::redis_store
