#pragma once
// A JetStream key-value bucket through libnats (its kvStore): small records read, written
// only over a known revision, listed and watched. Blocking calls, each bounded by the
// JetStream context's timeout; never on a reactor.
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace nats_jetstream {

struct KeyValueEntry {
  std::string key;
  std::string value;
  uint64_t revision = 0;        // the bucket's sequence of this write: grows with every write to the bucket
  int64_t written_unix_ns = 0;  // when the servers stored it
};

struct BucketSpec {
  std::string name;
  int replicas = 3;
  int history = 1;                   // values kept per key
  std::chrono::seconds max_age{0};   // 0: values never expire
  int32_t max_value_bytes = -1;      // -1: the servers' limit
};

class KeyWatch;

class KeyValueBucket {
 public:
  // NotFound when the bucket does not exist.
  static absl::StatusOr<KeyValueBucket> open(jsCtx* jetstream, const std::string& name);
  // Created with spec when missing; an existing bucket is used as it is.
  static absl::StatusOr<KeyValueBucket> open_or_create(jsCtx* jetstream, const BucketSpec& spec);

  // nullopt when the key has no value (never written, deleted or purged).
  absl::StatusOr<std::optional<KeyValueEntry>> get(const std::string& key);
  // The new revision.
  absl::StatusOr<uint64_t> put(const std::string& key, std::string_view value);
  // Written only while the key's revision is still expected (0: the key has no value);
  // FailedPrecondition when another writer came first.
  absl::StatusOr<uint64_t> put_over(const std::string& key, std::string_view value, uint64_t expected);
  // The values of the keys matching pattern (subject wildcards: "a.*", "a.>"), at most
  // timeout to gather them.
  absl::StatusOr<std::vector<KeyValueEntry>> entries(const std::string& pattern, std::chrono::milliseconds timeout);
  // Changes to the keys matching pattern from now on, starting with each one's current value.
  absl::StatusOr<KeyWatch> watch(const std::string& pattern);

 private:
  using StorePtr = std::unique_ptr<kvStore, void (*)(kvStore*)>;
  explicit KeyValueBucket(kvStore* store) : store_(store, &kvStore_Destroy) {}
  StorePtr store_;
};

class KeyWatch {
 public:
  // The next value written (current values first), nullopt when none came within timeout.
  // Deletions are skipped. An error means the watch is broken: make a new one.
  absl::StatusOr<std::optional<KeyValueEntry>> next(std::chrono::milliseconds timeout);
  // From any thread: a next() waiting returns an error, and every later one.
  void stop();

 private:
  friend class KeyValueBucket;
  using WatcherPtr = std::unique_ptr<kvWatcher, void (*)(kvWatcher*)>;
  explicit KeyWatch(kvWatcher* watcher) : watcher_(watcher, &kvWatcher_Destroy) {}
  WatcherPtr watcher_;
};

}  // namespace nats_jetstream
