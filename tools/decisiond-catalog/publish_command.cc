#include "tools/decisiond-catalog/publish_command.h"

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "nats_jetstream/key_value.h"
#include "nats_jetstream/stream_setup.h"
#include "service/catalog_updates/catalog_build.h"
#include "tools/decisiond-catalog/nats_session.h"

namespace tools::decisiond_catalog {

namespace {
using Clock = std::chrono::steady_clock;

// Records are small: a few kept per name let an operator see the last ones (nats kv history).
constexpr int kRevisionHistory = 5;

int64_t ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

absl::StatusOr<std::string> read_catalog(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read ", path, ": not a file"));
  }
  if (static_cast<uint64_t>(st.st_size) > decision::catalog::kMaxCatalogBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is larger than ", decision::catalog::kMaxCatalogBytes,
                                                   " bytes, the most a node loads"));
  }
  // Read straight into one buffer: a 115 MB catalog is not worth a second copy.
  std::string text(static_cast<size_t>(st.st_size), '\0');
  std::ifstream in(path, std::ios::binary);
  if (!in.read(text.data(), static_cast<std::streamsize>(text.size()))) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read ", path));
  }
  return text;
}

// The builder's verdict: the catalog's own revision and ads, or every error.
absl::Status check_catalog(const std::string& path, const std::string& text, service::RevisionRecord& record) {
  decision::endpoint::PlacementLabels labels;
  const service::BuiltCatalog built = service::build_catalog_from_text(text, path, labels);
  if (!built.ok()) {
    std::string message = absl::StrCat("catalog ", path, " refused with ", built.errors.size(),
                                       " error(s), nothing published:");
    for (const decision::catalog::CatalogError& error : built.errors) absl::StrAppend(&message, "\n  ", error.to_string());
    return absl::InvalidArgumentError(message);
  }
  record.catalog_revision = std::string(built.served->snapshot->revision());
  record.ads = built.served->snapshot->ads().size();
  return absl::OkStatus();
}

// The stream and both buckets, created when missing.
absl::StatusOr<nats_jetstream::KeyValueBucket> prepare(jsCtx* jetstream, const CommandLine& line, std::string& notes) {
  const std::string& name = line.to.name;
  nats_jetstream::StreamSpec stream;
  stream.name = service::catalog_stream(name);
  stream.subjects = {service::catalog_subjects(name)};
  stream.replicas = line.replicas;
  absl::StatusOr<nats_jetstream::StreamSetup> setup = nats_jetstream::ensure_stream(jetstream, stream);
  if (!setup.ok()) return setup.status();
  if (!setup->differences.empty()) {
    absl::StrAppend(&notes, "note: stream ", stream.name, " is used as it is: ", setup->differences, "\n");
  }
  nats_jetstream::BucketSpec nodes;
  nodes.name = std::string(service::kNodeBucket);
  nodes.replicas = line.replicas;
  nodes.max_age = service::kNodeReportMaxAge;
  if (absl::StatusOr<nats_jetstream::KeyValueBucket> made = nats_jetstream::KeyValueBucket::open_or_create(jetstream, nodes);
      !made.ok()) {
    return made.status();
  }
  nats_jetstream::BucketSpec revisions;
  revisions.name = std::string(service::kRevisionBucket);
  revisions.replicas = line.replicas;
  revisions.history = kRevisionHistory;
  return nats_jetstream::KeyValueBucket::open_or_create(jetstream, revisions);
}
}  // namespace

absl::StatusOr<Published> publish_catalog(const CommandLine& line) {
  const std::string& name = line.to.name;
  absl::StatusOr<std::string> text = read_catalog(line.file);
  if (!text.ok()) return text.status();
  Published out;
  Clock::time_point started = Clock::now();
  if (absl::Status checked = check_catalog(line.file, *text, out.record); !checked.ok()) return checked;
  out.build_ms = ms_since(started);

  absl::StatusOr<NatsSession> session = connect(line);
  if (!session.ok()) return session.status();
  jsCtx* jetstream = session->jetstream.get();
  absl::StatusOr<nats_jetstream::KeyValueBucket> revisions = prepare(jetstream, line, out.notes);
  if (!revisions.ok()) return revisions.status();

  started = Clock::now();
  absl::StatusOr<std::optional<nats_jetstream::KeyValueEntry>> current = revisions->get(name);
  if (!current.ok()) return current.status();
  std::optional<service::RevisionRecord> previous;
  if (*current) {
    absl::StatusOr<service::RevisionRecord> parsed = service::parse_revision_record((*current)->value);
    if (parsed.ok()) {
      previous = *std::move(parsed);
    } else {
      absl::StrAppend(&out.notes, "note: the record of ", name, " read is replaced: ", parsed.status().message(), "\n");
    }
  }
  out.previous_revision = previous ? previous->revision : 0;
  out.record.revision = out.previous_revision + 1;
  nats_jetstream::BlobWriteOptions options;
  options.chunk_bytes = service::kChunkBytes;
  absl::StatusOr<nats_jetstream::StoredBlob> blob =
      nats_jetstream::publish_blob(jetstream, service::revision_place(name, out.record.revision), *text, options);
  if (!blob.ok()) return blob.status();
  out.record.blob = *std::move(blob);
  out.record.published_unix_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  absl::StatusOr<uint64_t> written =
      revisions->put_over(name, service::to_json(out.record), *current ? (*current)->revision : 0);
  if (absl::IsFailedPrecondition(written.status())) {
    return absl::AbortedError(absl::StrCat("another publish of ", name, " came first (", written.status().message(),
                                           "); this one replaced nothing: publish again"));
  }
  if (!written.ok()) return written.status();
  out.store_ms = ms_since(started);

  // The previous revision stays: a node that read its record just before this one was
  // written can still fetch it whole. Everything older goes.
  if (previous) {
    if (absl::Status purged = nats_jetstream::purge_before(jetstream, service::catalog_stream(name),
                                                           service::catalog_subjects(name), previous->blob.first_seq);
        !purged.ok()) {
      absl::StrAppend(&out.notes, "note: older revisions were not purged: ", purged.message(), "\n");
    }
  }
  return out;
}

}  // namespace tools::decisiond_catalog
