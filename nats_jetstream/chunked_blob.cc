#include "nats_jetstream/chunked_blob.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/nats_handles.h"
#include "runtime/check.h"

namespace nats_jetstream {

namespace {
constexpr const char* kBlobHeader = "Blob-Id";
constexpr const char* kChunkHeader = "Blob-Chunk";  // "<index>/<count>"

std::string random_id() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return {};
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
}

std::string with_code(std::string text, jsErrCode code) {
  if (code != 0) absl::StrAppend(&text, " (JetStream error ", static_cast<int>(code), ")");
  return text;
}

// One chunk stored and acknowledged; its stream sequence.
absl::StatusOr<uint64_t> publish_chunk(jsCtx* jetstream, const BlobPlace& place, const std::string& blob_id,
                                       uint32_t index, uint32_t count, std::string_view data, int attempts) {
  const std::string chunk = absl::StrCat(index, "/", count);
  const std::string message_id = absl::StrCat(blob_id, ".", index);
  absl::Status last;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    natsMsg* raw = nullptr;
    natsStatus s = natsMsg_Create(&raw, place.subject.c_str(), nullptr, data.data(), static_cast<int>(data.size()));
    MsgPtr msg(raw);
    if (s == NATS_OK) s = natsMsgHeader_Set(msg.get(), kBlobHeader, blob_id.c_str());
    if (s == NATS_OK) s = natsMsgHeader_Set(msg.get(), kChunkHeader, chunk.c_str());
    if (s != NATS_OK) return absl::InternalError(describe_status("chunk message", s));
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MsgId = message_id.c_str();
    options.ExpectStream = place.stream.c_str();
    jsPubAck* ack_raw = nullptr;
    jsErrCode code = static_cast<jsErrCode>(0);
    s = js_PublishMsg(&ack_raw, jetstream, msg.get(), &options, &code);
    PubAckPtr ack(ack_raw);
    if (s == NATS_OK && ack != nullptr) return ack->Sequence;
    last = absl::UnavailableError(
        with_code(describe_status(absl::StrCat("publishing chunk ", chunk, " to ", place.subject).c_str(), s), code));
    // Only a lost or late acknowledgement is worth another attempt; a refusal is final.
    if (s != NATS_TIMEOUT && s != NATS_NO_RESPONDERS) return last;
  }
  return last;
}

// How many messages the stream holds on subject (0 when none or no stream).
absl::StatusOr<uint64_t> messages_on(jsCtx* jetstream, const BlobPlace& place) {
  jsOptions options;
  jsOptions_Init(&options);
  options.Stream.Info.SubjectsFilter = place.subject.c_str();
  jsStreamInfo* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus s = js_GetStreamInfo(&raw, jetstream, place.stream.c_str(), &options, &code);
  StreamInfoPtr info(raw);
  if (s == NATS_NOT_FOUND) return 0;
  if (s != NATS_OK) {
    return absl::UnavailableError(with_code(describe_status(absl::StrCat("stream ", place.stream).c_str(), s), code));
  }
  DECISIOND_CHECK(info != nullptr);  // the library's promise with NATS_OK
  const jsStreamStateSubjects* subjects = info->State.Subjects;
  if (subjects == nullptr) return 0;
  for (int i = 0; i < subjects->Count; ++i) {
    if (place.subject == subjects->List[i].Subject) return subjects->List[i].Msgs;
  }
  return 0;
}

std::string header(natsMsg* msg, const char* name) {
  const char* value = nullptr;
  return natsMsgHeader_Get(msg, name, &value) == NATS_OK && value != nullptr ? std::string(value) : std::string();
}
}  // namespace

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[32];
  unsigned int length = 0;
  const int digested = EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  // A digest that failed would read as a blob's recorded one that never matches.
  DECISIOND_CHECK(digested == 1 && length == sizeof digest);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), length));
}

absl::StatusOr<StoredBlob> publish_blob(jsCtx* jetstream, const BlobPlace& place, std::string_view value,
                                        const BlobWriteOptions& options) {
  if (options.chunk_bytes == 0) return absl::InvalidArgumentError("chunk size 0");
  DECISIOND_CHECK(options.chunk_bytes <= INT32_MAX);  // a chunk is one message: the library takes an int
  DECISIOND_CHECK(value.size() / options.chunk_bytes < UINT32_MAX);  // chunks are counted in 32 bits
  StoredBlob blob;
  blob.id = random_id();
  if (blob.id.empty()) return absl::InternalError("no random bytes for a blob id");
  blob.bytes = value.size();
  blob.sha256_hex = sha256_hex(value);
  // An empty value is still one (empty) chunk, so every blob has a first sequence.
  blob.chunks = static_cast<uint32_t>(std::max<size_t>(1, (value.size() + options.chunk_bytes - 1) / options.chunk_bytes));
  for (uint32_t i = 0; i < blob.chunks; ++i) {
    const std::string_view data = value.substr(std::min(value.size(), size_t{i} * options.chunk_bytes), options.chunk_bytes);
    absl::StatusOr<uint64_t> seq = publish_chunk(jetstream, place, blob.id, i, blob.chunks, data, options.attempts);
    if (!seq.ok()) return seq.status();
    if (i == 0) blob.first_seq = *seq;
    blob.last_seq = *seq;
  }
  return blob;
}

absl::StatusOr<std::string> read_blob(jsCtx* jetstream, const BlobPlace& place, const StoredBlob& blob,
                                      const BlobReadOptions& options) {
  if (options.max_bytes != 0 && blob.bytes > options.max_bytes) {
    return absl::OutOfRangeError(absl::StrCat("blob of ", blob.bytes, " bytes, more than ", options.max_bytes));
  }
  // A purged blob would otherwise be noticed only when a chunk never comes.
  absl::StatusOr<uint64_t> held = messages_on(jetstream, place);
  if (!held.ok()) return held.status();
  if (*held < blob.chunks) {
    return absl::NotFoundError(absl::StrCat(place.subject, " holds ", *held, " message(s), fewer than the blob's ",
                                            blob.chunks, " chunks: purged?"));
  }

  jsSubOptions sub_options;
  jsSubOptions_Init(&sub_options);
  sub_options.Stream = place.stream.c_str();
  sub_options.Ordered = true;
  sub_options.Config.DeliverPolicy = js_DeliverByStartSequence;
  sub_options.Config.OptStartSeq = blob.first_seq;
  natsSubscription* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  natsStatus s = js_SubscribeSync(&raw, jetstream, place.subject.c_str(), nullptr, &sub_options, &code);
  if (s != NATS_OK) {
    return absl::UnavailableError(with_code(describe_status(absl::StrCat("reading ", place.subject).c_str(), s), code));
  }
  SubscriptionPtr sub(raw);
  // Flow control paces the servers; these limits only keep a fast server from overflowing
  // the library's queue (which would drop chunks and reset the consumer) meanwhile.
  natsSubscription_SetPendingLimits(sub.get(), 4096, 512 << 20);

  std::string value;
  value.reserve(blob.bytes);
  uint32_t next = 0;
  while (next < blob.chunks) {
    natsMsg* msg_raw = nullptr;
    s = natsSubscription_NextMsg(&msg_raw, sub.get(), options.chunk_timeout.count());
    MsgPtr msg(msg_raw);
    if (s == NATS_TIMEOUT) {
      return absl::DeadlineExceededError(absl::StrCat("chunk ", next, " of ", blob.chunks, " on ", place.subject,
                                                      " not delivered within ", options.chunk_timeout.count(), " ms"));
    }
    if (s != NATS_OK) return absl::UnavailableError(describe_status(absl::StrCat("reading ", place.subject).c_str(), s));
    if (header(msg.get(), kBlobHeader) != blob.id) continue;  // another blob published on the subject at once
    if (header(msg.get(), kChunkHeader) != absl::StrCat(next, "/", blob.chunks)) {
      return absl::DataLossError(absl::StrCat("chunk ", next, " of ", blob.chunks, " on ", place.subject, " reads as ",
                                              header(msg.get(), kChunkHeader)));
    }
    value.append(natsMsg_GetData(msg.get()), static_cast<size_t>(natsMsg_GetDataLength(msg.get())));
    if (value.size() > blob.bytes) break;
    ++next;
  }
  if (value.size() != blob.bytes) {
    return absl::DataLossError(absl::StrCat(place.subject, ": chunks hold ", value.size(), " bytes, ", blob.bytes,
                                            " recorded"));
  }
  if (sha256_hex(value) != blob.sha256_hex) {
    return absl::DataLossError(absl::StrCat(place.subject, ": SHA-256 of the chunks differs from the recorded one"));
  }
  return value;
}

absl::Status purge_before(jsCtx* jetstream, const std::string& stream, const std::string& filter, uint64_t seq) {
  // Nothing precedes sequence 1, and the servers (2.9) read a bound of 1 as none at all:
  // the request would purge every message of the filter.
  if (seq <= 1) return absl::OkStatus();
  jsOptions options;
  jsOptions_Init(&options);
  options.Stream.Purge.Subject = filter.c_str();
  options.Stream.Purge.Sequence = seq;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus s = js_PurgeStream(jetstream, stream.c_str(), &options, &code);
  if (s != NATS_OK) {
    return absl::UnavailableError(with_code(describe_status(absl::StrCat("purging ", filter).c_str(), s), code));
  }
  return absl::OkStatus();
}

}  // namespace nats_jetstream
