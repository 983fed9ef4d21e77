#include "nats_jetstream/stream_reader.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/nats_handles.h"
#include "runtime/check.h"

namespace nats_jetstream {

namespace {
// Whether the consumer has nothing to deliver at all: none pending and none delivered yet.
// A filter or a start point may leave nothing between it and the stream's end, and then no
// message comes to say so.
absl::StatusOr<bool> nothing_to_deliver(natsSubscription* subscription, const std::string& stream) {
  jsConsumerInfo* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus s = natsSubscription_GetConsumerInfo(&raw, subscription, nullptr, &code);
  ConsumerInfoPtr info(raw);
  if (s != NATS_OK) return absl::UnavailableError(describe_status(absl::StrCat("reading stream ", stream).c_str(), s));
  DECISIOND_CHECK(info != nullptr);  // the library's promise with NATS_OK
  return info->NumPending == 0 && info->Delivered.Consumer == 0;
}
}  // namespace

absl::StatusOr<StreamStatus> stream_status(jsCtx* jetstream, const std::string& stream) {
  jsStreamInfo* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus s = js_GetStreamInfo(&raw, jetstream, stream.c_str(), nullptr, &code);
  StreamInfoPtr info(raw);
  if (s == NATS_NOT_FOUND || code == JSStreamNotFoundErr) return absl::NotFoundError(absl::StrCat("no stream ", stream));
  if (s != NATS_OK) return absl::UnavailableError(describe_status(absl::StrCat("stream ", stream).c_str(), s));
  DECISIOND_CHECK(info != nullptr);
  const jsClusterInfo* cluster = info->Cluster;
  return StreamStatus{info->State.LastSeq,
                      cluster == nullptr || (cluster->Leader != nullptr && cluster->Leader[0] != '\0')};
}

absl::StatusOr<uint64_t> stream_last_sequence(jsCtx* jetstream, const std::string& stream) {
  const absl::StatusOr<StreamStatus> status = stream_status(jetstream, stream);
  if (!status.ok()) return status.status();
  return status->last_sequence;
}

absl::Status read_stream(jsCtx* jetstream, const std::string& stream, const StreamReadOptions& options,
                         const std::function<void(const StreamMessage&)>& visit) {
  // A zero wait would end the read at the first message not already queued.
  DECISIOND_CHECK(jetstream != nullptr && options.idle_timeout.count() > 0);
  const absl::StatusOr<uint64_t> last = stream_last_sequence(jetstream, stream);
  if (!last.ok()) return last.status();
  if (*last == 0 || options.start_sequence > *last) return absl::OkStatus();

  jsSubOptions subscription_options;
  jsSubOptions_Init(&subscription_options);
  subscription_options.Stream = stream.c_str();
  subscription_options.Ordered = true;
  if (options.start_sequence > 0) {
    subscription_options.Config.DeliverPolicy = js_DeliverByStartSequence;
    subscription_options.Config.OptStartSeq = options.start_sequence;
  } else if (options.start_unix_ns > 0) {
    subscription_options.Config.DeliverPolicy = js_DeliverByStartTime;
    subscription_options.Config.OptStartTime = options.start_unix_ns;
  } else {
    subscription_options.Config.DeliverPolicy = js_DeliverAll;
  }
  const std::string subject = options.subject_filter.empty() ? ">" : options.subject_filter;
  natsSubscription* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  natsStatus s = js_SubscribeSync(&raw, jetstream, subject.c_str(), nullptr, &subscription_options, &code);
  if (s != NATS_OK) return absl::UnavailableError(describe_status(absl::StrCat("reading stream ", stream).c_str(), s));
  SubscriptionPtr subscription(raw);
  const bool partial = !options.subject_filter.empty() || options.start_unix_ns > 0 || options.start_sequence > 0;
  if (partial) {
    const absl::StatusOr<bool> none = nothing_to_deliver(subscription.get(), stream);
    if (!none.ok()) return none.status();
    if (*none) return absl::OkStatus();
  }

  uint64_t seen = 0;
  while (seen < *last) {
    natsMsg* raw_message = nullptr;
    s = natsSubscription_NextMsg(&raw_message, subscription.get(), options.idle_timeout.count());
    if (s == NATS_TIMEOUT) {
      return absl::DeadlineExceededError(
          absl::StrCat("stream ", stream, ": nothing for ", options.idle_timeout.count(), " ms at sequence ", seen,
                       " of ", *last));
    }
    if (s != NATS_OK) return absl::UnavailableError(describe_status(absl::StrCat("reading stream ", stream).c_str(), s));
    MsgPtr message(raw_message);
    jsMsgMetaData* raw_meta = nullptr;
    if (natsMsg_GetMetaData(&raw_meta, message.get()) != NATS_OK) continue;  // not a stream message
    MsgMetaDataPtr meta(raw_meta);
    seen = meta->Sequence.Stream;
    const char* id = nullptr;
    if (natsMsgHeader_Get(message.get(), "Nats-Msg-Id", &id) != NATS_OK) id = nullptr;
    const char* data = natsMsg_GetData(message.get());
    visit(StreamMessage{seen, meta->Timestamp, natsMsg_GetSubject(message.get()), id != nullptr ? id : "",
                        std::string_view(data != nullptr ? data : "", static_cast<size_t>(natsMsg_GetDataLength(message.get())))});
    // Pending counts what the consumer has not delivered yet: none left means caught up,
    // even when a filter skips the stream's last sequences.
    if (meta->NumPending == 0) break;
  }
  return absl::OkStatus();
}

}  // namespace nats_jetstream
