#include "service/catalog_updates/update_loop.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "http/error_body.h"
#include "http/error_codes.h"
#include "http/json_writer.h"
#include "runtime/clock.h"
#include "runtime/log/logger.h"
#include "runtime/signals.h"
#include "service/catalog_updates/catalog_upload_handler.h"
#include "service/catalog_updates/memory_release.h"
#include "service/core_services.h"
#include "service/process_view.h"
#include "service/tls/core_tls_contexts.h"

namespace service {
namespace {

constexpr runtime::log::Logger kUpdateLoopLog("main");
constexpr runtime::log::Logger kUpdateCatalogLog("catalog");
constexpr runtime::log::Logger kUpdateGeoLog("geo");
constexpr runtime::log::Logger kUpdateTlsLog("tls");
constexpr runtime::log::Logger kUpdateKeysLog("keys");

int64_t wall_now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void adopt_on_core(runtime::Reactor& here, const runtime::Message& message) {
  auto* view = reinterpret_cast<ProcessView*>(message.words[0]);
  auto* publication = static_cast<Publication*>(message.pointer);
  // Counted off by the core (CoreServices::adopt), once it serves all of it.
  view->cores[here.index()]->adopt(*publication);
}

void answer_on_core(runtime::Reactor&, const runtime::Message& message) {
  auto* upload = static_cast<CatalogUpload*>(message.pointer);
  upload->home->finish(upload);
}

// 422 10030 with one item per catalog error: its JSON path in details.field.
std::string refusal_body(const BuiltCatalog& built) {
  std::vector<http::ErrorItem> items;
  items.reserve(built.errors.size());
  std::vector<std::string> messages;
  messages.reserve(built.errors.size());
  for (const decision::catalog::CatalogError& error : built.errors) {
    messages.push_back("catalog refused: " + error.message);
    items.push_back({http::error_code::kCatalogRefused, messages.back(), error.path});
  }
  std::string body;
  http::append_error_envelope(body, items);
  return body;
}

std::string accepted_body(const decision::endpoint::ServedCatalog& served, int64_t duration_ms) {
  std::string body;
  http::JsonWriter json(body);
  json.begin_object().literal_key("success").boolean(true).literal_key("data").begin_object();
  json.literal_key("revision").string(served.snapshot->revision());
  json.literal_key("ads").number(static_cast<uint64_t>(served.snapshot->ads().size()));
  json.literal_key("placements").number(static_cast<uint64_t>(served.snapshot->placements().size()));
  json.literal_key("load_ms").number(duration_ms);
  json.end_object().literal_key("errors").null().literal_key("warnings").null().end_object();
  return body;
}

}  // namespace

void publication_adopted(Publication& publication) {
  if (publication.pending.fetch_sub(1, std::memory_order_acq_rel) == 1) ::eventfd_write(publication.done_fd, 1);
}

UpdateLoop::UpdateLoop(const ServiceConfig& config, runtime::CoreGroup& group, ProcessView& view,
                       std::shared_ptr<const decision::endpoint::ServedCatalog> catalog,
                       std::unique_ptr<decision::geo::GeoIpDatabase> geoip, tracking::KeyRing keys,
                       NatsCatalogSource* nats)
    : config_(config),
      group_(group),
      view_(view),
      catalog_(std::move(catalog)),
      geoip_(std::move(geoip)),
      keys_(std::move(keys)),
      nats_(nats),
      done_fd_(::eventfd(0, EFD_CLOEXEC)) {
  if (done_fd_ < 0) {
    kUpdateLoopLog.error_then_abort("eventfd: %s", std::strerror(errno));
  }
}

UpdateLoop::~UpdateLoop() { ::close(done_fd_); }

void UpdateLoop::run() {
  runtime::SignalFd signals;
  for (;;) {
    // Without a NATS catalog the third entry is ignored (a negative descriptor).
    pollfd fds[3] = {{signals.fd(), POLLIN, 0}, {view_.uploads.wake_fd(), POLLIN, 0},
                     {nats_ != nullptr ? nats_->wake_fd() : -1, POLLIN, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      kUpdateLoopLog.error("poll: %s", std::strerror(errno));
      return;
    }
    if (fds[0].revents != 0) {
      const std::optional<runtime::ProcessSignal> signal = signals.read();
      if (signal == runtime::ProcessSignal::kTerminate) return;
      if (signal == runtime::ProcessSignal::kReload) reload_from_files();
    }
    if (fds[1].revents != 0) {
      view_.uploads.clear_wake();
      while (CatalogUpload* upload = view_.uploads.take()) handle_upload(upload);
    }
    if (fds[2].revents != 0) {
      if (std::unique_ptr<FetchedRevision> fetched = nats_->take()) handle_revision(std::move(fetched));
    }
  }
}

void UpdateLoop::reload_from_files() {
  if (nats_ != nullptr) {
    // The catalog follows its published revisions; there is no file to read again.
    kUpdateLoopLog.info("SIGHUP: the catalog comes from %s (not reloaded); reloading %sthe tracking keys",
              nats_->describe().c_str(), config_.geoip_db_path.empty() ? "" : "GeoIP and ");
  } else {
    kUpdateLoopLog.info("SIGHUP: reloading the catalog%s and the tracking keys", config_.geoip_db_path.empty() ? "" : ", GeoIP");
  }
  BuiltCatalog built;
  if (nats_ == nullptr) built = build_catalog_from_file(config_.catalog_path, *view_.placement_labels);
  std::unique_ptr<decision::geo::GeoIpDatabase> geoip;
  bool geoip_changed = false;
  if (!config_.geoip_db_path.empty()) {
    absl::StatusOr<decision::geo::GeoIpDatabase> opened = decision::geo::GeoIpDatabase::open(config_.geoip_db_path);
    if (opened.ok()) {
      geoip = std::make_unique<decision::geo::GeoIpDatabase>(*std::move(opened));
      geoip_changed = true;
    } else {
      view_.updates.geoip_refusals.store(view_.updates.geoip_refusals.load() + 1);
      kUpdateGeoLog.warn("--geoip-db %s refused, the database in force stays: %s", config_.geoip_db_path.c_str(),
                   std::string(opened.status().message()).c_str());
    }
  }
  if (!built.ok() && nats_ == nullptr) refused(built);
  const bool catalog_changed = built.ok();
  if (catalog_changed || geoip_changed) publish(built.served, std::move(geoip), geoip_changed);
  if (catalog_changed) {
    kUpdateCatalogLog.info("catalog %s published: revision %s, %zu ads, built in %lld ms", built.source.c_str(),
                     std::string(catalog_->snapshot->revision()).c_str(), catalog_->snapshot->ads().size(),
                     static_cast<long long>(built.duration_ms));
    view_.updates.catalog_load_ms.store(built.duration_ms);
  }
  if (geoip_changed) kUpdateGeoLog.info("--geoip-db %s re-opened", config_.geoip_db_path.c_str());
  // Last: what was published above is in force on every core by now, whatever becomes of
  // the keys.
  reload_keys();
  reload_tls();
}

void UpdateLoop::reload_tls() {
  if (!config_.tls.any()) return;
  // Loaded here, off the reactors, one per core: a core only swaps a pointer.
  auto loaded = load_core_tls_contexts(config_.tls, config_.state_dir, group_.cores(), /*first_start=*/false);
  if (!loaded.ok()) {
    view_.tls_certificates.reloads_refused.fetch_add(1);
    kUpdateTlsLog.warn("TLS certificates refused, the ones in force stay: %s", std::string(loaded.status().message()).c_str());
    return;
  }
  Publication publication;
  publication.tls_contexts = *std::move(loaded);
  std::vector<tls::CertificateFact> facts = publication.tls_contexts.front()->certificates();
  deliver(publication);
  view_.tls_certificates.set(std::move(facts));
  view_.tls_certificates.reloads_applied.fetch_add(1);
  kUpdateTlsLog.info("TLS certificates reloaded on every core; open connections keep theirs");
}

void UpdateLoop::reload_keys() {
  const std::string file = tracking::key_file_path(config_.state_dir);
  tracking::KeyReload reload = tracking::plan_key_reload(keys_, tracking::KeyRing::load(config_.state_dir), file);
  UpdateStats& stats = view_.updates;
  switch (reload.result) {
    case tracking::KeyReloadResult::kRefused:
      stats.keys_refused.store(stats.keys_refused.load() + 1);
      kUpdateKeysLog.warn("tracking keys refused, the keys in force stay (%s): %s", tracking::describe_keys(keys_).c_str(),
                    reload.refusal.c_str());
      return;
    case tracking::KeyReloadResult::kUnchanged:
      stats.keys_unchanged.store(stats.keys_unchanged.load() + 1);
      kUpdateKeysLog.info("tracking keys %s unchanged (%s)", file.c_str(), tracking::describe_keys(keys_).c_str());
      return;
    case tracking::KeyReloadResult::kApplied:
      break;
  }
  // A key no core holds yet signs only once every core opens it (key_reload.h).
  if (reload.opening_first) publish_keys(*reload.opening_first);
  publish_keys(*reload.ring);
  keys_ = *std::move(reload.ring);
  stats.keys_applied.store(stats.keys_applied.load() + 1);
  kUpdateKeysLog.info("tracking keys %s applied on every core%s: %s", file.c_str(),
                reload.opening_first ? " (the new keys opened first, then the new signing key)" : "",
                tracking::describe_keys(keys_).c_str());
}

void UpdateLoop::publish_keys(const tracking::KeyRing& ring) {
  Publication publication;
  publication.codecs.reserve(group_.cores());
  // Built here, off the reactors: a core only swaps a pointer.
  for (uint32_t core = 0; core < group_.cores(); ++core) {
    publication.codecs.push_back(std::make_unique<tracking::RingCodecs>(ring));
  }
  deliver(publication);
  // publication.codecs now holds each core's previous codecs: they go with it, here.
}

void UpdateLoop::handle_upload(CatalogUpload* upload) {
  BuiltCatalog built = build_catalog_from_text(upload->body, "POST /admin/catalog", *view_.placement_labels);
  upload->body = std::string();  // up to --max-catalog-bytes: let it go now
  if (!built.ok()) {
    refused(built);
    upload->status = 422;
    upload->reply_body = refusal_body(built);
    answer(upload);
    return;
  }
  publish(built.served, nullptr, false);
  view_.updates.catalog_load_ms.store(built.duration_ms);
  view_.updates.catalog_revision.store(0);
  if (nats_ != nullptr) {
    kUpdateCatalogLog.info("POST /admin/catalog replaces the catalog of %s until its next revision", nats_->describe().c_str());
    nats_->replaced_by_upload(std::string(catalog_->snapshot->revision()), catalog_->snapshot->ads().size(),
                              runtime::SystemClock::instance().wall_ms());
  }
  upload->status = 200;
  upload->reply_body = accepted_body(*catalog_, built.duration_ms);
  kUpdateCatalogLog.info("catalog from POST /admin/catalog published: revision %s, %zu ads, built in %lld ms",
                   std::string(catalog_->snapshot->revision()).c_str(), catalog_->snapshot->ads().size(),
                   static_cast<long long>(built.duration_ms));
  answer(upload);
}

void UpdateLoop::handle_revision(std::unique_ptr<FetchedRevision> fetched) {
  const RevisionRecord& record = fetched->record;
  BuiltCatalog built = build_catalog_from_text(
      fetched->bytes, absl::StrCat(nats_->describe(), " revision ", record.revision), *view_.placement_labels);
  fetched->bytes = std::string();  // up to 256 MiB: let it go now
  if (!built.ok()) {
    refused(built);
    nats_->failed(record, refusal_summary(built));
    return;
  }
  publish(built.served, nullptr, false);
  view_.updates.catalog_load_ms.store(built.duration_ms);
  view_.updates.catalog_revision.store(record.revision);
  kUpdateCatalogLog.info("catalog %s published: revision %s, %zu ads, built in %lld ms", built.source.c_str(),
                   std::string(catalog_->snapshot->revision()).c_str(), catalog_->snapshot->ads().size(),
                   static_cast<long long>(built.duration_ms));
  nats_->served(record, std::string(catalog_->snapshot->revision()), catalog_->snapshot->ads().size(),
                runtime::SystemClock::instance().wall_ms());
}

void UpdateLoop::refused(const BuiltCatalog& built) {
  UpdateStats& stats = view_.updates;
  stats.catalogs_refused.store(stats.catalogs_refused.load() + 1);
  stats.last_refusal_wall_s.store(wall_now_s());
  stats.last_refusal_errors.store(built.errors.size());
  kUpdateCatalogLog.warn("catalog %s refused with %zu error(s), the catalog in force stays:%s", built.source.c_str(),
                   built.errors.size(), listed_errors(built).c_str());
}

void UpdateLoop::publish(std::shared_ptr<const decision::endpoint::ServedCatalog> catalog,
                         std::unique_ptr<decision::geo::GeoIpDatabase> geoip, bool geoip_changed) {
  Publication publication;
  publication.catalog = catalog;
  publication.geoip_changed = geoip_changed;
  publication.geoip = geoip.get();
  deliver(publication);
  // Every core serves the new ones: the previous catalog and database are released here,
  // on this thread, never on a reactor.
  const bool frees_memory = catalog || geoip_changed;
  if (catalog) {
    catalog_ = std::move(catalog);
    UpdateStats& stats = view_.updates;
    stats.catalogs_published.store(stats.catalogs_published.load() + 1);
    stats.catalog_loaded_wall_s.store(wall_now_s());
  }
  if (geoip_changed) {
    geoip_ = std::move(geoip);
    UpdateStats& stats = view_.updates;
    stats.geoip_reloads.store(stats.geoip_reloads.load() + 1);
    stats.geoip_loaded_wall_s.store(wall_now_s());
  }
  if (frees_memory) release_freed_memory();
}

void UpdateLoop::deliver(Publication& publication) {
  publication.pending.store(group_.cores(), std::memory_order_relaxed);
  publication.done_fd = done_fd_;
  runtime::Message message;
  message.run = &adopt_on_core;
  message.pointer = &publication;
  message.words[0] = reinterpret_cast<uintptr_t>(&view_);
  // A full queue is waited on until that core makes room (runtime/one_way_post.h).
  for (uint32_t core = 0; core < group_.cores(); ++core) group_.post_one_way(core, message);
  eventfd_t adopted = 0;
  while (::eventfd_read(done_fd_, &adopted) != 0 && errno == EINTR) {
  }
}

void UpdateLoop::answer(CatalogUpload* upload) {
  runtime::Message message;
  message.run = &answer_on_core;
  message.pointer = upload;
  group_.post_one_way(upload->core, message);
}

}  // namespace service
