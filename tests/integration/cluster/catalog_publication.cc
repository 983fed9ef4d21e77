#include "tests/integration/cluster/catalog_publication.h"

#include <thread>

#include "absl/strings/str_cat.h"
#include "nats_jetstream/connection.h"
#include "nats_jetstream/key_value.h"
#include "service/catalog_updates/nats_catalog_layout.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"

namespace integration {

namespace {
using Clock = std::chrono::steady_clock;

template <typename Done>
bool poll_until(std::chrono::milliseconds timeout, Done&& done) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (done()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}
}  // namespace

std::string catalog_url(const NatsCluster& nats, const std::string& name) {
  return nats.client_url() + "/" + name;
}

CommandRun run_catalog_tool(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {DECISIOND_CATALOG_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, kToolTimeout);
}

std::string generated_catalog(int ads, int seed) {
  const CommandRun run = run_command(
      {GEN_CATALOG_BINARY, "--ads=" + std::to_string(ads), "--seed=" + std::to_string(seed)}, kToolTimeout);
  return run.exit_code == 0 ? run.out : std::string();
}

double served_revision(const ServerProcess& node) {
  const std::string page = scrape_metrics(node);
  return sum_samples(page, "decisiond_catalog_revision", {}).value_or(-1);
}

bool wait_for_revision(const std::vector<ServerProcess*>& nodes, uint64_t revision, std::chrono::milliseconds timeout) {
  return poll_until(timeout, [&] {
    for (ServerProcess* node : nodes) {
      if (served_revision(*node) != static_cast<double>(revision)) return false;
    }
    return true;
  });
}

long readyz_status(const ServerProcess& node) {
  CurlSession session;
  return session.get(node.admin_url("/readyz")).status;
}

bool wait_for_log(ServerProcess& node, const std::string& text, std::chrono::milliseconds timeout) {
  return poll_until(timeout, [&] { return node.stderr_text().find(text) != std::string::npos; });
}

RawPublish publish_unchecked(const NatsCluster& nats, const std::string& name, const std::string& bytes,
                             bool corrupt_sha256) {
  RawPublish out;
  nats_jetstream::ConnectionSettings settings;
  settings.servers.urls = nats.server_urls();
  settings.timeout = std::chrono::milliseconds(5000);
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> connection =
      nats_jetstream::JetStreamConnection::open(settings);
  if (!connection.ok() || !(*connection)->wait_connected(std::chrono::milliseconds(10000))) {
    out.error = "no connection";
    return out;
  }
  absl::StatusOr<nats_jetstream::JetStreamPtr> jetstream = (*connection)->jetstream();
  if (!jetstream.ok()) {
    out.error = std::string(jetstream.status().message());
    return out;
  }
  absl::StatusOr<nats_jetstream::KeyValueBucket> revisions =
      nats_jetstream::KeyValueBucket::open(jetstream->get(), std::string(service::kRevisionBucket));
  if (!revisions.ok()) {
    out.error = std::string(revisions.status().message());
    return out;
  }
  absl::StatusOr<std::optional<nats_jetstream::KeyValueEntry>> current = revisions->get(name);
  if (!current.ok() || !*current) {
    out.error = "nothing published yet";
    return out;
  }
  absl::StatusOr<service::RevisionRecord> previous = service::parse_revision_record((*current)->value);
  if (!previous.ok()) {
    out.error = std::string(previous.status().message());
    return out;
  }
  service::RevisionRecord record;
  record.revision = previous->revision + 1;
  nats_jetstream::BlobWriteOptions options;
  options.chunk_bytes = service::kChunkBytes;
  absl::StatusOr<nats_jetstream::StoredBlob> blob =
      nats_jetstream::publish_blob(jetstream->get(), service::revision_place(name, record.revision), bytes, options);
  if (!blob.ok()) {
    out.error = std::string(blob.status().message());
    return out;
  }
  record.blob = *blob;
  if (corrupt_sha256) record.blob.sha256_hex = std::string(64, '0');
  absl::StatusOr<uint64_t> written = revisions->put_over(name, service::to_json(record), (*current)->revision);
  if (!written.ok()) {
    out.error = std::string(written.status().message());
    return out;
  }
  out.revision = record.revision;
  return out;
}

}  // namespace integration
