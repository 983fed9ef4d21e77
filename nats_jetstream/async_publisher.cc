#include "nats_jetstream/async_publisher.h"

#include <charconv>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "nats_jetstream/pub_ack.h"

namespace nats_jetstream {

namespace {
constexpr const char* kMessageIdHeader = "Nats-Msg-Id";
// "<inbox>.<slot>.<generation>": the inbox is "_INBOX." and 22 characters.
constexpr size_t kReplyBytes = 96;

// "<slot>.<generation>" after the inbox prefix; false for anything else.
bool parse_reply(std::string_view rest, uint32_t& slot, uint32_t& generation) {
  const size_t dot = rest.find('.');
  if (dot == std::string_view::npos) return false;
  const char* end = rest.data() + rest.size();
  const auto first = std::from_chars(rest.data(), rest.data() + dot, slot);
  const auto second = std::from_chars(rest.data() + dot + 1, end, generation);
  return first.ec == std::errc() && first.ptr == rest.data() + dot && second.ec == std::errc() && second.ptr == end;
}
}  // namespace

absl::StatusOr<std::unique_ptr<AsyncPublisher>> AsyncPublisher::create(JetStreamConnection& connection,
                                                                        AsyncPublisherSettings settings,
                                                                        PublishListener& listener) {
  if (settings.max_pending == 0) return absl::InvalidArgumentError("max_pending must be at least 1");
  std::unique_ptr<AsyncPublisher> self(new AsyncPublisher(connection, settings, listener));
  natsInbox* inbox = nullptr;
  if (natsStatus s = natsInbox_Create(&inbox); s != NATS_OK) return absl::InternalError(describe_status("inbox", s));
  self->inbox_ = absl::StrCat(inbox, ".");
  natsInbox_Destroy(inbox);
  const std::string subject = absl::StrCat(self->inbox_, "*.*");
  natsStatus s = natsConnection_Subscribe(&self->subscription_, connection.nats(), subject.c_str(),
                                          &AsyncPublisher::on_answer, self.get());
  if (s != NATS_OK) return absl::UnavailableError(describe_status("subscribing to acknowledgements", s));
  // Bounded by max_pending: the library need not bound the answers waiting for the handler.
  s = natsSubscription_SetPendingLimits(self->subscription_, -1, -1);
  if (s == NATS_OK) s = natsSubscription_SetOnCompleteCB(self->subscription_, &AsyncPublisher::on_complete, self.get());
  if (s != NATS_OK) {
    // Nothing was published, so no answer can come: the subscription goes without waiting.
    natsSubscription_Unsubscribe(self->subscription_);
    natsSubscription_Destroy(self->subscription_);
    self->subscription_ = nullptr;
    return absl::InternalError(describe_status("acknowledgement subscription", s));
  }
  return self;
}

AsyncPublisher::AsyncPublisher(JetStreamConnection& connection, AsyncPublisherSettings settings,
                               PublishListener& listener)
    : connection_(connection), settings_(settings), listener_(listener), slots_(settings.max_pending) {
  free_.reserve(settings.max_pending);
  for (uint32_t i = settings.max_pending; i > 0; --i) free_.push_back(i - 1);
}

AsyncPublisher::~AsyncPublisher() {
  if (subscription_ == nullptr) return;
  // A closed connection has closed the subscription already; either way the library calls
  // on_complete once its last answer callback has returned, and not before.
  natsSubscription_Unsubscribe(subscription_);
  {
    std::unique_lock lock(complete_mutex_);
    complete_cv_.wait(lock, [this] { return complete_; });
  }
  natsSubscription_Destroy(subscription_);
}

absl::Status AsyncPublisher::publish(const char* subject, const char* message_id, std::string_view data,
                                     uint64_t token) {
  uint32_t index = 0;
  uint32_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return absl::ResourceExhaustedError("every publish slot awaits its acknowledgement");
    index = free_.back();
    free_.pop_back();
    Slot& slot = slots_[index];
    slot.in_use = true;
    slot.token = token;
    generation = slot.generation;
  }
  char reply[kReplyBytes];
  std::snprintf(reply, sizeof(reply), "%s%u.%u", inbox_.c_str(), index, generation);
  natsMsg* message = nullptr;
  natsStatus s = natsMsg_Create(&message, subject, reply, data.data(), static_cast<int>(data.size()));
  if (s == NATS_OK) s = natsMsgHeader_Set(message, kMessageIdHeader, message_id);
  if (s == NATS_OK) s = natsConnection_PublishMsg(connection_.nats(), message);
  natsMsg_Destroy(message);
  if (s == NATS_OK) return absl::OkStatus();
  std::lock_guard lock(mutex_);
  Slot& slot = slots_[index];
  if (slot.in_use && slot.generation == generation) {
    slot.in_use = false;
    ++slot.generation;
    free_.push_back(index);
  }
  return absl::UnavailableError(describe_status("publish", s));
}

uint32_t AsyncPublisher::pending() const {
  std::lock_guard lock(mutex_);
  return static_cast<uint32_t>(slots_.size() - free_.size());
}

uint32_t AsyncPublisher::abandon_pending() {
  std::lock_guard lock(mutex_);
  uint32_t abandoned = 0;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (!slot.in_use) continue;
    slot.in_use = false;
    ++slot.generation;
    free_.push_back(i);
    ++abandoned;
  }
  return abandoned;
}

void AsyncPublisher::on_answer(natsConnection*, natsSubscription*, natsMsg* message, void* self) {
  static_cast<AsyncPublisher*>(self)->answer(message);
  natsMsg_Destroy(message);
}

void AsyncPublisher::on_complete(void* self) {
  auto* me = static_cast<AsyncPublisher*>(self);
  std::lock_guard lock(me->complete_mutex_);
  me->complete_ = true;
  me->complete_cv_.notify_all();
}

void AsyncPublisher::answer(natsMsg* message) {
  const std::string_view subject = natsMsg_GetSubject(message);
  uint32_t index = 0;
  uint32_t generation = 0;
  if (!subject.starts_with(inbox_) || !parse_reply(subject.substr(inbox_.size()), index, generation)) {
    late_answers_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  uint64_t token = 0;
  {
    std::lock_guard lock(mutex_);
    if (index >= slots_.size() || !slots_[index].in_use || slots_[index].generation != generation) {
      late_answers_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    Slot& slot = slots_[index];
    token = slot.token;
    slot.in_use = false;
    ++slot.generation;
    free_.push_back(index);
  }
  if (natsMsg_IsNoResponders(message)) {
    listener_.refused(token, "no responders (no stream stores the subject, or its leader is unavailable)");
    return;
  }
  const char* data = natsMsg_GetData(message);
  const std::optional<PubAck> ack =
      parse_pub_ack(std::string_view(data != nullptr ? data : "", static_cast<size_t>(natsMsg_GetDataLength(message))));
  if (!ack) {
    listener_.refused(token, "an acknowledgement that is not one");
  } else if (!ack->error.empty()) {
    listener_.refused(token, ack->error);
  } else {
    listener_.acknowledged(token, ack->stream_seq, ack->duplicate);
  }
}

}  // namespace nats_jetstream
