#include "tools/decisiond-catalog/status_command.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "http/json_writer.h"
#include "nats_jetstream/key_value.h"
#include "tools/decisiond-catalog/nats_session.h"

namespace tools::decisiond_catalog {

namespace {
constexpr int64_t kSilentAfterMs =
    3 * std::chrono::duration_cast<std::chrono::milliseconds>(service::kNodeReportInterval).count();

std::string ago(int64_t then_ms, int64_t now_ms) {
  if (then_ms == 0) return "-";
  return absl::StrCat(std::max<int64_t>(0, (now_ms - then_ms) / 1000), "s ago");
}

// The last failure if any, else why the node waits, else "-".
std::string detail_text(const service::NodeReport& node) {
  if (node.failed_revision != 0 || !node.error.empty()) {
    return absl::StrCat("revision ", node.failed_revision, " failed: ", node.error);
  }
  return node.waiting.empty() ? "-" : node.waiting;
}

void write_record(http::JsonWriter& json, const service::RevisionRecord& r) {
  json.begin_object();
  json.literal_key("revision").number(r.revision);
  json.literal_key("published").string(service::rfc3339_ms(r.published_unix_ms));
  json.literal_key("catalogRevision").string(r.catalog_revision);
  json.literal_key("ads").number(r.ads);
  json.literal_key("bytes").number(r.blob.bytes);
  json.literal_key("chunks").number(static_cast<uint64_t>(r.blob.chunks));
  json.literal_key("sha256").string(r.blob.sha256_hex);
  json.end_object();
}

void write_node(http::JsonWriter& json, const service::NodeReport& n, const CatalogStatus& status) {
  json.begin_object();
  json.literal_key("node").string(n.node_id);
  json.literal_key("state").string(node_state(n, status));
  json.literal_key("revision").number(n.revision);
  json.literal_key("sha256").string(n.sha256);
  json.literal_key("catalogRevision").string(n.catalog_revision);
  json.literal_key("ads").number(n.ads);
  json.literal_key("loaded").string(service::rfc3339_ms(n.loaded_unix_ms));
  json.literal_key("waiting").string(n.waiting);
  json.literal_key("failedRevision").number(n.failed_revision);
  json.literal_key("error").string(n.error);
  json.literal_key("reported").string(service::rfc3339_ms(n.reported_unix_ms));
  json.end_object();
}

std::string json_text(const CatalogStatus& status) {
  std::string out;
  http::JsonWriter json(out);
  json.begin_object().literal_key("name").string(status.name).literal_key("latest");
  if (status.latest) {
    write_record(json, *status.latest);
  } else {
    json.null();
  }
  json.literal_key("nodes").begin_array();
  for (const service::NodeReport& n : status.nodes) write_node(json, n, status);
  json.end_array().literal_key("unreadable").begin_array();
  for (const std::string& line : status.unreadable) json.string(line);
  json.end_array().end_object();
  out.push_back('\n');
  return out;
}
}  // namespace

absl::StatusOr<CatalogStatus> read_status(const CommandLine& line) {
  CatalogStatus status;
  status.name = line.to.name;
  absl::StatusOr<NatsSession> session = connect(line);
  if (!session.ok()) return session.status();
  jsCtx* jetstream = session->jetstream.get();
  absl::StatusOr<nats_jetstream::KeyValueBucket> revisions =
      nats_jetstream::KeyValueBucket::open(jetstream, std::string(service::kRevisionBucket));
  if (revisions.ok()) {
    absl::StatusOr<std::optional<nats_jetstream::KeyValueEntry>> latest = revisions->get(status.name);
    if (!latest.ok()) return latest.status();
    if (*latest) {
      absl::StatusOr<service::RevisionRecord> record = service::parse_revision_record((*latest)->value);
      if (!record.ok()) return record.status();
      status.latest = *std::move(record);
    }
  } else if (!absl::IsNotFound(revisions.status())) {
    return revisions.status();
  }
  absl::StatusOr<nats_jetstream::KeyValueBucket> nodes =
      nats_jetstream::KeyValueBucket::open(jetstream, std::string(service::kNodeBucket));
  if (nodes.ok()) {
    absl::StatusOr<std::vector<nats_jetstream::KeyValueEntry>> entries =
        nodes->entries(service::node_keys(status.name), line.timeout);
    if (!entries.ok()) return entries.status();
    for (const nats_jetstream::KeyValueEntry& entry : *entries) {
      absl::StatusOr<service::NodeReport> report = service::parse_node_report(entry.value);
      if (report.ok()) {
        status.nodes.push_back(*std::move(report));
      } else {
        status.unreadable.push_back(absl::StrCat(entry.key, ": ", report.status().message()));
      }
    }
  } else if (!absl::IsNotFound(nodes.status())) {
    return nodes.status();
  }
  std::sort(status.nodes.begin(), status.nodes.end(),
            [](const service::NodeReport& a, const service::NodeReport& b) { return a.node_id < b.node_id; });
  status.now_unix_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return status;
}

std::string node_state(const service::NodeReport& node, const CatalogStatus& status) {
  if (status.now_unix_ms - node.reported_unix_ms > kSilentAfterMs) return "silent";
  if (node.revision == 0) return node.waiting.empty() ? "upload" : "waiting";
  if (status.latest && node.revision == status.latest->revision) return "current";
  return "behind";
}

std::string status_text(const CatalogStatus& status, bool json) {
  if (json) return json_text(status);
  std::string out;
  if (status.latest) {
    const service::RevisionRecord& r = *status.latest;
    absl::StrAppend(&out, status.name, ": revision ", r.revision, " published ", service::rfc3339_ms(r.published_unix_ms),
                    ", catalog \"", r.catalog_revision, "\", ", r.ads, " ads, ", r.blob.bytes, " bytes in ",
                    r.blob.chunks, " chunks, sha256 ", r.blob.sha256_hex, "\n");
  } else {
    absl::StrAppend(&out, status.name, ": nothing published\n");
  }
  if (status.nodes.empty()) {
    absl::StrAppend(&out, "no node reports ", status.name, "\n");
  } else {
    absl::StrAppend(&out, absl::StrFormat("%-20s %-9s %-8s %-25s %-10s %s\n", "NODE", "REVISION", "STATE", "LOADED",
                                          "REPORTED", "DETAIL"));
  }
  for (const service::NodeReport& n : status.nodes) {
    absl::StrAppend(&out, absl::StrFormat("%-20s %-9d %-8s %-25s %-10s %s\n", n.node_id, n.revision,
                                          node_state(n, status),
                                          n.loaded_unix_ms == 0 ? "-" : service::rfc3339_ms(n.loaded_unix_ms),
                                          ago(n.reported_unix_ms, status.now_unix_ms), detail_text(n)));
  }
  for (const std::string& line : status.unreadable) absl::StrAppend(&out, "unreadable report ", line, "\n");
  return out;
}

}  // namespace tools::decisiond_catalog
