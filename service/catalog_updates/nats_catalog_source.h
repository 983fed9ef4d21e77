#pragma once
// A node's catalog from NATS JetStream (--catalog=nats://host:port[,...]/<name>,
// docs/catalog-publication.md): a thread of its own, never a reactor, watches the key
// <name> of the revision bucket, fetches each new revision's chunks and checks them, and
// hands the bytes to the update loop, which builds and publishes them to the cores as it
// does an upload (update_loop.h). What became of each revision comes back here and is
// written to the node bucket under <name>.<node id> for decisiond-catalog status.
//
// The thread never gives up: servers down, a bucket or key not there yet, a watch broken
// by a server restart are each logged once when they start, and retried.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/key_value.h"
#include "service/catalog_updates/nats_catalog_layout.h"

namespace service {

// How long a node waits at start for the latest revision before it serves an empty catalog
// (unready) and lets the revision come later: long enough for a catalog of some thousand
// ads on a healthy cluster, short enough to start within a supervisor's patience.
inline constexpr std::chrono::milliseconds kFirstRevisionWait{2000};

struct NatsCatalogSettings {
  nats_jetstream::ServerList servers;  // with the published name
  nats_jetstream::Credentials credentials;
  std::string node_id;
};

// A revision whose chunks are all here and add up to its record.
struct FetchedRevision {
  RevisionRecord record;
  std::string bytes;
};

// Why a node serves no catalog of its own yet (it starts with an empty one, unready).
enum class CatalogWait : int {
  kNone = 0,           // it serves a revision (or an upload)
  kServers = 1,        // no NATS server answers
  kNotPublished = 2,   // the servers answer; nothing published under the name
  kFetching = 3,       // a revision is being fetched or built
  kFailed = 4,         // the latest revision could not be fetched or built; waiting for another
};
const char* wait_text(CatalogWait wait);

// Counted by the source's thread, read by scrapes (nats_catalog_metrics.h).
struct NatsCatalogCounters {
  std::atomic<uint64_t> fetched{0};         // revisions fetched whole and checked
  std::atomic<uint64_t> fetch_failures{0};  // revisions whose chunks were missing, late or did not add up
  std::atomic<uint64_t> fetch_ms{0};        // how long the last fetch took
};

class NatsCatalogSource {
 public:
  // Connects in the background (never waits for a server) and starts the thread. Fails
  // only on settings the client library refuses.
  static absl::StatusOr<std::unique_ptr<NatsCatalogSource>> start(NatsCatalogSettings settings);
  ~NatsCatalogSource();
  NatsCatalogSource(const NatsCatalogSource&) = delete;
  NatsCatalogSource& operator=(const NatsCatalogSource&) = delete;

  // At start, on the main thread: the latest revision once fetched, or null when none is
  // fetched within timeout (it is then handed over later, through wake_fd).
  std::unique_ptr<FetchedRevision> wait_first(std::chrono::milliseconds timeout);
  // Readable when a fetched revision waits for the update loop; take() clears it.
  int wake_fd() const { return wake_fd_; }
  // The newest fetched revision not yet taken, or null. An older one not taken in time is
  // dropped: only the latest is worth building.
  std::unique_ptr<FetchedRevision> take();

  // From the update loop (and main, for the first): what became of a revision taken, or of
  // an upload. failed: the builder refused it (the source itself reports a failed fetch).
  void served(const RevisionRecord& record, std::string catalog_revision, uint64_t ads, int64_t loaded_unix_ms);
  void failed(const RevisionRecord& record, std::string why);
  void replaced_by_upload(std::string catalog_revision, uint64_t ads, int64_t loaded_unix_ms);

  // Stops the thread (it stops watching and reporting); idempotent.
  void stop();

  CatalogWait wait() const { return wait_.load(std::memory_order_relaxed); }
  const NatsCatalogCounters& counters() const { return counters_; }
  bool connected() const { return connected_.load(std::memory_order_relaxed); }
  // "nats://host:port,.../<name>", for log lines.
  const std::string& describe() const { return described_; }
  const std::string& name() const { return settings_.servers.name; }

 private:
  NatsCatalogSource(NatsCatalogSettings settings, nats_jetstream::ConnectionSettings connection_settings,
                    std::unique_ptr<nats_jetstream::JetStreamConnection> connection);
  void run();
  // One pass: connected, buckets open, the watch made; false (and said why) when not.
  bool ready_to_watch();
  // A connection the servers closed (they refused the login) opened again, at most every
  // kReopenInterval, with why it closed said.
  void reopen();
  // Fetches the record's revision unless handed over already (or failed and not due for a
  // retry); whether it was one never seen before.
  bool consider(const nats_jetstream::KeyValueEntry& entry);
  bool fetch(const RevisionRecord& record);
  void hand_over(std::unique_ptr<FetchedRevision> fetched);
  void report_if_due();
  void note(CatalogWait wait, const std::string& why);
  void sleep_for(std::chrono::milliseconds pause);

  const NatsCatalogSettings settings_;
  const nats_jetstream::ConnectionSettings connection_settings_;
  const std::string described_;
  std::unique_ptr<nats_jetstream::JetStreamConnection> connection_;  // replaced by the thread only, under mutex_
  // Declared in the order they are made: each is freed before what it hangs on.
  nats_jetstream::JetStreamPtr jetstream_{nullptr, &jsCtx_Destroy};  // fetches
  nats_jetstream::JetStreamPtr control_{nullptr, &jsCtx_Destroy};    // buckets, the watch, reports
  std::unique_ptr<nats_jetstream::KeyValueBucket> revisions_;
  std::unique_ptr<nats_jetstream::KeyWatch> watch_;
  std::unique_ptr<nats_jetstream::KeyValueBucket> nodes_;

  // The thread's own state.
  uint64_t handed_revision_ = 0;  // the last revision fetched and handed over
  uint64_t failed_revision_ = 0;  // the last one whose fetch failed, retried at retry_at_
  std::chrono::steady_clock::time_point retry_at_;
  std::chrono::steady_clock::time_point poll_at_;
  std::chrono::steady_clock::time_point report_at_;
  std::chrono::steady_clock::time_point reopen_at_;
  std::string last_note_;
  std::string last_fetch_error_;
  std::string last_report_error_;

  std::atomic<CatalogWait> wait_{CatalogWait::kServers};
  std::atomic<bool> connected_{false};  // for scrapes: the connection itself is the thread's
  NatsCatalogCounters counters_;

  std::mutex mutex_;  // the hand-over slot, the report and stopping: never held across a NATS call
  std::condition_variable changed_;
  std::unique_ptr<FetchedRevision> pending_;
  bool handed_any_ = false;
  NodeReport report_;
  bool report_changed_ = true;
  bool stopping_ = false;
  int wake_fd_ = -1;
  std::thread thread_;
};

}  // namespace service
