#include "service/catalog_updates/nats_catalog_source.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "runtime/absl_view.h"
#include "runtime/clock.h"
#include "runtime/log/logger.h"

namespace service {

namespace {

constexpr runtime::log::Logger kNatsCatalogLog("catalog");

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// One wait on the watch: also how soon a report or a stop is noticed.
constexpr milliseconds kWatchWait{500};
// A read of the key besides the watch, which a server restart can leave silent for a while.
constexpr milliseconds kPollInterval{2000};
// After servers, a bucket or the watch failed: the bucket is missing until the first
// publish, and a node waiting for it should serve that publish within a second.
constexpr milliseconds kRetryInterval{250};
// After a revision's fetch failed, before the same revision is fetched again.
constexpr milliseconds kFetchRetry{2000};
// The most a read of the key, a watch's creation or a node report waits for the servers;
// what times out is tried again at the next turn.
constexpr milliseconds kControlTimeout{500};
// After the servers closed the connection (a login they refuse), before it is opened again.
constexpr milliseconds kReopenInterval{5000};
// The most to wait for any one chunk: a 512 KiB chunk takes milliseconds.
constexpr milliseconds kChunkTimeout{10000};

void count(std::atomic<uint64_t>& counter) { counter.store(counter.load(std::memory_order_relaxed) + 1); }
}  // namespace

const char* wait_text(CatalogWait wait) {
  switch (wait) {
    case CatalogWait::kNone: return "serving";
    case CatalogWait::kServers: return "waiting for the NATS servers";
    case CatalogWait::kNotPublished: return "waiting for a first revision to be published";
    case CatalogWait::kFetching: return "fetching the latest revision";
    case CatalogWait::kFailed: return "the latest revision failed here; waiting for another";
  }
  return "waiting";
}

absl::StatusOr<std::unique_ptr<NatsCatalogSource>> NatsCatalogSource::start(NatsCatalogSettings settings) {
  nats_jetstream::ConnectionSettings connection_settings;
  connection_settings.servers = settings.servers;
  connection_settings.credentials = settings.credentials;
  connection_settings.client_name = absl::StrCat("decisiond catalog ", settings.node_id);
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> connection =
      nats_jetstream::JetStreamConnection::open(connection_settings);
  if (!connection.ok()) return connection.status();
  std::unique_ptr<NatsCatalogSource> source(
      new NatsCatalogSource(std::move(settings), std::move(connection_settings), *std::move(connection)));
  source->thread_ = std::thread([s = source.get()] { s->run(); });
  return source;
}

NatsCatalogSource::NatsCatalogSource(NatsCatalogSettings settings, nats_jetstream::ConnectionSettings connection_settings,
                                     std::unique_ptr<nats_jetstream::JetStreamConnection> connection)
    : settings_(std::move(settings)),
      connection_settings_(std::move(connection_settings)),
      described_(absl::StrCat(nats_jetstream::describe(settings_.servers), "/", settings_.servers.name)),
      connection_(std::move(connection)),
      wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (wake_fd_ < 0) {
    kNatsCatalogLog.error_then_abort("eventfd: %s", std::strerror(errno));
  }
  report_.node_id = settings_.node_id;
  report_.waiting = "starting";
}

NatsCatalogSource::~NatsCatalogSource() {
  stop();
  ::close(wake_fd_);
}

void NatsCatalogSource::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    // Closing the connection ends a watch wait or a fetch in progress at once. Under the
    // lock: the thread replaces a connection the servers closed only while holding it.
    natsConnection_Close(connection_->nats());
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::unique_ptr<FetchedRevision> NatsCatalogSource::wait_first(milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, timeout, [this] {
    const CatalogWait w = wait_.load();
    return pending_ != nullptr || w == CatalogWait::kNotPublished || w == CatalogWait::kFailed;
  });
  eventfd_t ignored;
  ::eventfd_read(wake_fd_, &ignored);
  return std::move(pending_);
}

std::unique_ptr<FetchedRevision> NatsCatalogSource::take() {
  const std::lock_guard<std::mutex> lock(mutex_);
  eventfd_t ignored;
  ::eventfd_read(wake_fd_, &ignored);
  return std::move(pending_);
}

void NatsCatalogSource::served(const RevisionRecord& record, std::string catalog_revision, uint64_t ads,
                               int64_t loaded_unix_ms) {
  const std::lock_guard<std::mutex> lock(mutex_);
  wait_.store(CatalogWait::kNone);
  report_.revision = record.revision;
  report_.sha256 = record.blob.sha256_hex;
  report_.catalog_revision = std::move(catalog_revision);
  report_.ads = ads;
  report_.loaded_unix_ms = loaded_unix_ms;
  report_.waiting.clear();
  report_changed_ = true;
}

void NatsCatalogSource::failed(const RevisionRecord& record, std::string why) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    report_.failed_revision = record.revision;
    report_.error = std::move(why);
    report_.failed_unix_ms = runtime::SystemClock::instance().wall_ms();
    if (wait_.load() != CatalogWait::kNone) {
      wait_.store(CatalogWait::kFailed);
      report_.waiting = wait_text(CatalogWait::kFailed);
    }
    report_changed_ = true;
  }
  changed_.notify_all();
}

void NatsCatalogSource::replaced_by_upload(std::string catalog_revision, uint64_t ads, int64_t loaded_unix_ms) {
  const std::lock_guard<std::mutex> lock(mutex_);
  wait_.store(CatalogWait::kNone);
  report_.revision = 0;
  report_.sha256.clear();
  report_.catalog_revision = std::move(catalog_revision);
  report_.ads = ads;
  report_.loaded_unix_ms = loaded_unix_ms;
  report_.waiting.clear();
  report_changed_ = true;
}

void NatsCatalogSource::run() {
  for (;;) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
    }
    if (!ready_to_watch()) {
      report_if_due();
      sleep_for(kRetryInterval);
      continue;
    }
    absl::StatusOr<std::optional<nats_jetstream::KeyValueEntry>> next = watch_->next(kWatchWait);
    if (!next.ok()) {
      note(wait_.load(), absl::StrCat("the watch of ", name(), " broke, watching again: ", next.status().message()));
      watch_.reset();
      continue;
    }
    if (*next) consider(**next);
    if (Clock::now() >= poll_at_) {
      // Until a first record is seen the key is read as often as a missing bucket is looked
      // for: a watch made on a bucket just created did not always deliver the first write.
      const bool none_seen = handed_revision_ == 0 && failed_revision_ == 0;
      poll_at_ = Clock::now() + (none_seen ? kRetryInterval : kPollInterval);
      absl::StatusOr<std::optional<nats_jetstream::KeyValueEntry>> latest = revisions_->get(name());
      // A revision the read finds before the watch did: the watch may be deaf, make a new one.
      if (latest.ok() && *latest && consider(**latest)) watch_.reset();
      if (latest.ok() && !*latest) note(CatalogWait::kNotPublished, absl::StrCat("nothing published under ", name(), " yet"));
    }
    report_if_due();
  }
}

bool NatsCatalogSource::ready_to_watch() {
  connected_.store(connection_->connected(), std::memory_order_relaxed);
  if (connection_->state() == nats_jetstream::ConnectionState::kClosed) {
    reopen();
    return false;
  }
  if (!connection_->connected()) {
    const std::string error = connection_->last_error();
    note(CatalogWait::kServers, absl::StrCat("no NATS server answers (", nats_jetstream::state_name(connection_->state()),
                                             error.empty() ? "" : ": ", error, "); the node waits for them"));
    return false;
  }
  if (jetstream_ == nullptr) {
    // Two contexts: fetches may take the connection's whole API timeout; the key, the watch
    // and the reports take kControlTimeout, since this one thread also watches, and a
    // bucket the first publish just created answers nothing until its replicas elect a
    // leader: a read waiting out 2 s there held the first revision back as long.
    jsOptions options;
    jsOptions_Init(&options);
    options.Wait = kControlTimeout.count();
    absl::StatusOr<nats_jetstream::JetStreamPtr> jetstream = connection_->jetstream();
    absl::StatusOr<nats_jetstream::JetStreamPtr> control = connection_->jetstream(options);
    if (!jetstream.ok() || !control.ok()) {
      note(CatalogWait::kServers, std::string((jetstream.ok() ? control : jetstream).status().message()));
      return false;
    }
    jetstream_ = *std::move(jetstream);
    control_ = *std::move(control);
  }
  if (revisions_ == nullptr) {
    absl::StatusOr<nats_jetstream::KeyValueBucket> bucket =
        nats_jetstream::KeyValueBucket::open(control_.get(), std::string(kRevisionBucket));
    if (!bucket.ok()) {
      const bool missing = absl::IsNotFound(bucket.status());
      note(missing ? CatalogWait::kNotPublished : CatalogWait::kServers,
           missing ? absl::StrCat("nothing published under ", name(), " yet (no bucket ", runtime::av(kRevisionBucket), ")")
                   : std::string(bucket.status().message()));
      return false;
    }
    revisions_ = std::make_unique<nats_jetstream::KeyValueBucket>(*std::move(bucket));
  }
  if (watch_ == nullptr) {
    absl::StatusOr<nats_jetstream::KeyWatch> watch = revisions_->watch(name());
    if (!watch.ok()) {
      note(CatalogWait::kServers, std::string(watch.status().message()));
      revisions_.reset();
      return false;
    }
    watch_ = std::make_unique<nats_jetstream::KeyWatch>(*std::move(watch));
    poll_at_ = Clock::now();
    if (!last_note_.empty()) {
      kNatsCatalogLog.info("catalog %s: watching %s", described_.c_str(), name().c_str());
      last_note_.clear();
    }
  }
  return true;
}

void NatsCatalogSource::reopen() {
  if (Clock::now() < reopen_at_) return;
  reopen_at_ = Clock::now() + kReopenInterval;
  // The library closes a connection for good when the servers refuse the login; one attempt
  // of our own says why (the library says only that no server was available): libnats 3.4
  // answers "Authentication Violation" for a wrong password, "Authorization Violation" for
  // a user without permission.
  const absl::Status why = nats_jetstream::JetStreamConnection::probe(connection_settings_);
  note(CatalogWait::kServers, absl::StrCat("the NATS servers closed the connection (",
                                           why.ok() ? "they answer now" : why.message(),
                                           "); opened again every ", kReopenInterval.count() / 1000, " s"));
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> fresh =
      nats_jetstream::JetStreamConnection::open(connection_settings_);
  if (!fresh.ok()) return;
  // What hangs on the old connection goes before it.
  watch_.reset();
  revisions_.reset();
  nodes_.reset();
  control_.reset();
  jetstream_.reset();
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!stopping_) connection_ = *std::move(fresh);
}

bool NatsCatalogSource::consider(const nats_jetstream::KeyValueEntry& entry) {
  absl::StatusOr<RevisionRecord> record = parse_revision_record(entry.value);
  if (!record.ok()) {
    note(CatalogWait::kFailed, absl::StrCat("the record of ", name(), " at bucket revision ", entry.revision,
                                            " is refused: ", record.status().message()));
    return false;
  }
  if (record->revision == handed_revision_) return false;
  const bool news = record->revision != failed_revision_;
  if (!news && Clock::now() < retry_at_) return false;
  fetch(*record);
  return news;
}

bool NatsCatalogSource::fetch(const RevisionRecord& record) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (wait_.load() != CatalogWait::kNone) {
      wait_.store(CatalogWait::kFetching);
      report_.waiting = wait_text(CatalogWait::kFetching);
      report_changed_ = true;
    }
  }
  const Clock::time_point started = Clock::now();
  nats_jetstream::BlobReadOptions options;
  options.max_bytes = decision::catalog::kMaxCatalogBytes;
  options.chunk_timeout = kChunkTimeout;
  absl::StatusOr<std::string> bytes =
      nats_jetstream::read_blob(jetstream_.get(), revision_place(name(), record.revision), record.blob, options);
  const int64_t took_ms = std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();
  if (!bytes.ok()) {
    const std::string why = absl::StrCat("revision ", record.revision, " could not be fetched: ", bytes.status().message());
    // Retried every kFetchRetry until it comes whole or a newer revision replaces it: counted
    // and said once per revision and reason, not at every attempt.
    if (record.revision != failed_revision_) count(counters_.fetch_failures);
    if (why != last_fetch_error_) {
      kNatsCatalogLog.warn("catalog %s: %s; the catalog in force stays", described_.c_str(), why.c_str());
      last_fetch_error_ = why;
      failed(record, why);
    }
    failed_revision_ = record.revision;
    retry_at_ = Clock::now() + kFetchRetry;
    return false;
  }
  count(counters_.fetched);
  counters_.fetch_ms.store(static_cast<uint64_t>(took_ms));
  kNatsCatalogLog.info("catalog %s: revision %llu fetched: %llu bytes in %u chunks in %lld ms", described_.c_str(),
            static_cast<unsigned long long>(record.revision), static_cast<unsigned long long>(record.blob.bytes),
            record.blob.chunks, static_cast<long long>(took_ms));
  handed_revision_ = record.revision;
  auto fetched = std::make_unique<FetchedRevision>();
  fetched->record = record;
  fetched->bytes = *std::move(bytes);
  hand_over(std::move(fetched));
  return true;
}

void NatsCatalogSource::hand_over(std::unique_ptr<FetchedRevision> fetched) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(fetched);
  }
  changed_.notify_all();
  ::eventfd_write(wake_fd_, 1);
}

void NatsCatalogSource::report_if_due() {
  NodeReport report;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!report_changed_ && Clock::now() < report_at_) return;
    report = report_;
    report_changed_ = false;
  }
  const auto again = [this] {
    const std::lock_guard<std::mutex> lock(mutex_);
    report_changed_ = true;
  };
  if (!connection_->connected() || control_ == nullptr) return again();
  if (nodes_ == nullptr) {
    // decisiond-catalog publish creates the bucket: none means nothing was published yet.
    absl::StatusOr<nats_jetstream::KeyValueBucket> bucket =
        nats_jetstream::KeyValueBucket::open(control_.get(), std::string(kNodeBucket));
    if (!bucket.ok()) return again();
    nodes_ = std::make_unique<nats_jetstream::KeyValueBucket>(*std::move(bucket));
  }
  report.reported_unix_ms = runtime::SystemClock::instance().wall_ms();
  absl::StatusOr<uint64_t> written = nodes_->put(node_key(name(), settings_.node_id), to_json(report));
  if (!written.ok()) {
    // A bucket just created has no leader for a moment: said once, retried quietly.
    const std::string why = absl::StrCat("the node report could not be written: ", written.status().message());
    if (why != last_report_error_) kNatsCatalogLog.warn("catalog %s: %s", described_.c_str(), why.c_str());
    last_report_error_ = why;
    nodes_.reset();
    return again();
  }
  last_report_error_.clear();
  report_at_ = Clock::now() + kNodeReportInterval;
}

void NatsCatalogSource::note(CatalogWait wait, const std::string& why) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;  // the closed connection says nothing worth a line
    // A node that serves a catalog keeps serving it, whatever NATS does meanwhile.
    if (wait_.load() != CatalogWait::kNone) {
      wait_.store(wait);
      if (report_.waiting != why) {
        report_.waiting = why;
        report_changed_ = true;
      }
    }
  }
  if (why != last_note_) {
    last_note_ = why;
    kNatsCatalogLog.warn("catalog %s: %s", described_.c_str(), why.c_str());
  }
  changed_.notify_all();  // after the line: wait_first's caller logs what follows from it
}

void NatsCatalogSource::sleep_for(milliseconds pause) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, pause, [this] { return stopping_; });
}

}  // namespace service
