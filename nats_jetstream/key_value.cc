#include "nats_jetstream/key_value.h"

#include "absl/strings/str_cat.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/nats_handles.h"
#include "runtime/check.h"

namespace nats_jetstream {

namespace {
KeyValueEntry copy_entry(kvEntry* entry) {
  DECISIOND_CHECK(entry != nullptr && kvEntry_ValueLen(entry) >= 0);
  KeyValueEntry out;
  out.key = kvEntry_Key(entry);
  out.value.assign(static_cast<const char*>(kvEntry_Value(entry)), static_cast<size_t>(kvEntry_ValueLen(entry)));
  out.revision = kvEntry_Revision(entry);
  out.written_unix_ns = kvEntry_Created(entry);
  return out;
}

bool is_value(kvEntry* entry) { return kvEntry_Operation(entry) == kvOp_Put; }

absl::Status failed(const std::string& what, natsStatus status) {
  const std::string text = describe_status(what.c_str(), status);
  if (status == NATS_NOT_FOUND) return absl::NotFoundError(text);
  return absl::UnavailableError(text);
}
}  // namespace

absl::StatusOr<KeyValueBucket> KeyValueBucket::open(jsCtx* jetstream, const std::string& name) {
  kvStore* store = nullptr;
  const natsStatus s = js_KeyValue(&store, jetstream, name.c_str());
  if (s != NATS_OK) return failed(absl::StrCat("key-value bucket ", name), s);
  return KeyValueBucket(store);
}

absl::StatusOr<KeyValueBucket> KeyValueBucket::open_or_create(jsCtx* jetstream, const BucketSpec& spec) {
  absl::StatusOr<KeyValueBucket> existing = open(jetstream, spec.name);
  if (existing.ok() || !absl::IsNotFound(existing.status())) return existing;
  // Its history is a byte on the wire; the servers keep 64 values per key at most.
  DECISIOND_CHECK(spec.history >= 1 && spec.history <= 64);
  kvConfig config;
  kvConfig_Init(&config);
  config.Bucket = spec.name.c_str();
  config.Replicas = spec.replicas;
  config.History = static_cast<uint8_t>(spec.history);
  config.TTL = spec.max_age.count() * 1'000'000'000;  // nanoseconds: the stream's MaxAge as it is
  config.MaxValueSize = spec.max_value_bytes;
  config.StorageType = js_FileStorage;
  kvStore* store = nullptr;
  const natsStatus s = js_CreateKeyValue(&store, jetstream, &config);
  if (s != NATS_OK) return failed(absl::StrCat("creating key-value bucket ", spec.name), s);
  return KeyValueBucket(store);
}

absl::StatusOr<std::optional<KeyValueEntry>> KeyValueBucket::get(const std::string& key) {
  kvEntry* raw = nullptr;
  const natsStatus s = kvStore_Get(&raw, store_.get(), key.c_str());
  KvEntryPtr entry(raw);
  if (s == NATS_NOT_FOUND) return std::nullopt;
  if (s != NATS_OK) return failed(absl::StrCat("reading key ", key), s);
  if (!is_value(entry.get())) return std::nullopt;
  return copy_entry(entry.get());
}

absl::StatusOr<uint64_t> KeyValueBucket::put(const std::string& key, std::string_view value) {
  uint64_t revision = 0;
  DECISIOND_CHECK(value.size() <= INT32_MAX);  // the library takes an int
  const natsStatus s = kvStore_Put(&revision, store_.get(), key.c_str(), value.data(), static_cast<int>(value.size()));
  if (s != NATS_OK) return failed(absl::StrCat("writing key ", key), s);
  return revision;
}

absl::StatusOr<uint64_t> KeyValueBucket::put_over(const std::string& key, std::string_view value, uint64_t expected) {
  uint64_t revision = 0;
  DECISIOND_CHECK(value.size() <= INT32_MAX);
  const int length = static_cast<int>(value.size());
  const natsStatus s = expected == 0 ? kvStore_Create(&revision, store_.get(), key.c_str(), value.data(), length)
                                     : kvStore_Update(&revision, store_.get(), key.c_str(), value.data(), length, expected);
  if (s == NATS_OK) return revision;
  const absl::Status why = failed(absl::StrCat("writing key ", key), s);
  // The library reports a lost race only as the servers' text; the key's revision now says
  // whether it was one.
  absl::StatusOr<std::optional<KeyValueEntry>> now = get(key);
  if (now.ok() && (*now ? (*now)->revision : 0) != expected) {
    return absl::FailedPreconditionError(
        absl::StrCat("key ", key, " is at revision ", *now ? (*now)->revision : 0, ", not ", expected));
  }
  return why;
}

absl::StatusOr<std::vector<KeyValueEntry>> KeyValueBucket::entries(const std::string& pattern,
                                                                   std::chrono::milliseconds timeout) {
  kvWatchOptions options;
  kvWatchOptions_Init(&options);
  options.IgnoreDeletes = true;
  kvWatcher* raw = nullptr;
  natsStatus s = kvStore_Watch(&raw, store_.get(), pattern.c_str(), &options);
  if (s != NATS_OK) return failed(absl::StrCat("listing keys ", pattern), s);
  KeyWatch watch(raw);
  std::vector<KeyValueEntry> out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return absl::DeadlineExceededError(absl::StrCat("listing keys ", pattern, ": timed out"));
    kvEntry* next = nullptr;
    s = kvWatcher_Next(&next, watch.watcher_.get(), left.count());
    KvEntryPtr entry(next);
    if (s != NATS_OK) return failed(absl::StrCat("listing keys ", pattern), s);
    if (entry == nullptr) return out;  // the library's mark: every current value delivered
    if (is_value(entry.get())) out.push_back(copy_entry(entry.get()));
  }
}

absl::StatusOr<KeyWatch> KeyValueBucket::watch(const std::string& pattern) {
  kvWatcher* raw = nullptr;
  const natsStatus s = kvStore_Watch(&raw, store_.get(), pattern.c_str(), nullptr);
  if (s != NATS_OK) return failed(absl::StrCat("watching ", pattern), s);
  return KeyWatch(raw);
}

absl::StatusOr<std::optional<KeyValueEntry>> KeyWatch::next(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    kvEntry* raw = nullptr;
    const natsStatus s = kvWatcher_Next(&raw, watcher_.get(), left.count());
    KvEntryPtr entry(raw);
    if (s == NATS_TIMEOUT) return std::nullopt;
    if (s != NATS_OK) return failed("key watch", s);
    if (entry != nullptr && is_value(entry.get())) return copy_entry(entry.get());
  }
}

void KeyWatch::stop() { kvWatcher_Stop(watcher_.get()); }

}  // namespace nats_jetstream
