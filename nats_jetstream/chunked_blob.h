#pragma once
// A large value (up to hundreds of MB) kept in a JetStream stream as consecutive messages
// of one subject, since the servers refuse a message past max_payload (1 MB by default) and
// the C client has no object store. Each chunk is published synchronously and acknowledged
// before the next; each carries the blob's random id and its index, so chunks of two
// blobs published at once on one subject are told apart. A reader gets them in order
// through an ordered consumer from the first chunk's sequence (one push consumer the
// servers forget afterwards, with flow control) and checks the count, the size and the
// SHA-256 of the whole. Blocking; never on a reactor.
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace nats_jetstream {

struct BlobPlace {
  std::string stream;
  std::string subject;
};

// What a reader needs to find and check a blob: kept by the writer elsewhere (a
// key-value record) once every chunk is stored.
struct StoredBlob {
  std::string id;           // 32 hex digits, random; in every chunk
  uint64_t first_seq = 0;   // the stream sequence of chunk 0
  uint64_t last_seq = 0;
  uint32_t chunks = 0;
  uint64_t bytes = 0;
  std::string sha256_hex;   // of the whole value
};

struct BlobWriteOptions {
  size_t chunk_bytes = 512 << 10;
  int attempts = 3;  // per chunk; a retry after a lost acknowledgement is dropped by the stream's duplicate window
};

absl::StatusOr<StoredBlob> publish_blob(jsCtx* jetstream, const BlobPlace& place, std::string_view value,
                                        const BlobWriteOptions& options = {});

struct BlobReadOptions {
  uint64_t max_bytes = 0;                     // 0: any; else a blob that says it is larger is refused unread
  std::chrono::milliseconds chunk_timeout{5000};  // the most to wait for any one chunk
};

// The value whole: every chunk of the blob in order, the size and SHA-256 as recorded.
// NotFound when its chunks are no longer in the stream (purged); DataLoss when they do not
// add up to what was recorded.
absl::StatusOr<std::string> read_blob(jsCtx* jetstream, const BlobPlace& place, const StoredBlob& blob,
                                      const BlobReadOptions& options = {});

// Removes the messages of subjects matching filter stored before sequence seq (none for a
// seq of 0 or 1).
absl::Status purge_before(jsCtx* jetstream, const std::string& stream, const std::string& filter, uint64_t seq);

// 64 lower-case hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace nats_jetstream
