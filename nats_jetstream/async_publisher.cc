#include "nats_jetstream/async_publisher.h"

#include <charconv>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "nats_jetstream/pub_ack.h"
#include "runtime/check.h"

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
  natsStatus s = natsConnection_SubscribeSync(&self->subscription_, connection.nats(), subject.c_str());
  if (s != NATS_OK) return absl::UnavailableError(describe_status("subscribing to acknowledgements", s));
  // Bounded by max_pending: the library need not bound the answers waiting to be taken.
  if (s = natsSubscription_SetPendingLimits(self->subscription_, -1, -1); s != NATS_OK) {
    return absl::InternalError(describe_status("acknowledgement subscription", s));
  }
  return self;
}

AsyncPublisher::AsyncPublisher(JetStreamConnection& connection, AsyncPublisherSettings settings,
                               PublishListener& listener)
    : connection_(connection), settings_(settings), listener_(listener), slots_(settings.max_pending) {
  DECISIOND_CHECK(settings.max_pending > 0);  // create() refuses 0
  free_.reserve(settings.max_pending);
  for (uint32_t i = settings.max_pending; i > 0; --i) free_.push_back(i - 1);
}

AsyncPublisher::~AsyncPublisher() {
  if (subscription_ == nullptr) return;
  natsSubscription_Unsubscribe(subscription_);
  natsSubscription_Destroy(subscription_);
}

absl::Status AsyncPublisher::publish(const char* subject, const char* message_id, std::string_view data,
                                     uint64_t token) {
  if (free_.empty()) return absl::ResourceExhaustedError("every publish slot awaits its acknowledgement");
  const uint32_t index = free_.back();
  free_.pop_back();
  DECISIOND_CHECK(index < slots_.size());
  Slot& slot = slots_[index];
  DECISIOND_CHECK_MSG(!slot.in_use, "a publish slot on the free list is in use");
  DECISIOND_CHECK(data.size() <= INT32_MAX);  // the library takes an int
  slot.in_use = true;
  slot.token = token;
  const uint32_t generation = slot.generation;
  char reply[kReplyBytes];
  const int reply_length = std::snprintf(reply, sizeof(reply), "%s%u.%u", inbox_.c_str(), index, generation);
  // A cut reply subject would route the answer nowhere: the publish would look lost.
  DECISIOND_CHECK(reply_length > 0 && static_cast<size_t>(reply_length) < sizeof(reply));
  natsMsg* message = nullptr;
  natsStatus s = natsMsg_Create(&message, subject, reply, data.data(), static_cast<int>(data.size()));
  if (s == NATS_OK) s = natsMsgHeader_Set(message, kMessageIdHeader, message_id);
  if (s == NATS_OK) s = natsConnection_PublishMsg(connection_.nats(), message);
  natsMsg_Destroy(message);
  if (s == NATS_OK) return absl::OkStatus();
  slot.in_use = false;
  ++slot.generation;
  free_.push_back(index);
  return absl::UnavailableError(describe_status("publish", s));
}

size_t AsyncPublisher::take_answers(std::chrono::milliseconds wait, size_t max) {
  size_t taken = 0;
  while (taken < max) {
    natsMsg* message = nullptr;
    const natsStatus s = natsSubscription_NextMsg(&message, subscription_, taken == 0 ? wait.count() : 0);
    if (s == NATS_NO_RESPONDERS) {
      ++taken;
      listener_.refused_one("no responders (no stream stores the subject, or it has no leader)");
      continue;
    }
    if (s != NATS_OK) break;  // none (yet), or a closed subscription
    ++taken;
    answer(message);
    natsMsg_Destroy(message);
  }
  return taken;
}

size_t AsyncPublisher::answers_waiting() const {
  int messages = 0;
  if (natsSubscription_GetPending(subscription_, &messages, nullptr) != NATS_OK) return 0;
  return static_cast<size_t>(messages);
}

uint32_t AsyncPublisher::abandon_pending() {
  uint32_t abandoned = 0;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (!slot.in_use) continue;
    slot.in_use = false;
    ++slot.generation;
    free_.push_back(i);
    ++abandoned;
  }
  DECISIOND_CHECK(free_.size() == slots_.size());  // every slot free once, none twice
  return abandoned;
}

void AsyncPublisher::answer(natsMsg* message) {
  const std::string_view subject = natsMsg_GetSubject(message);
  uint32_t index = 0;
  uint32_t generation = 0;
  if (!subject.starts_with(inbox_) || !parse_reply(subject.substr(inbox_.size()), index, generation) ||
      index >= slots_.size() || !slots_[index].in_use || slots_[index].generation != generation) {
    ++late_answers_;
    return;
  }
  Slot& slot = slots_[index];
  const uint64_t token = slot.token;
  slot.in_use = false;
  ++slot.generation;
  free_.push_back(index);
  DECISIOND_CHECK(free_.size() <= slots_.size());
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
