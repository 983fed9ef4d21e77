#pragma once
// Where a catalog published to NATS JetStream lives (docs/catalog-publication.md), shared
// by decisiond-catalog (the writer and the status reader) and the nodes:
//   the bytes      stream decisiond-catalog-<name>, subject decisiond.catalog.<name>.<revision>,
//                  chunks of kChunkBytes (nats_jetstream/chunked_blob.h);
//   the revision   bucket decisiond-catalogs, key <name>: a RevisionRecord, written only once
//                  every chunk is stored, so a reader never sees a record without its bytes;
//   what nodes do  bucket decisiond-catalog-nodes, key <name>.<node id>: a NodeReport.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nats_jetstream/chunked_blob.h"

namespace service {

inline constexpr std::string_view kRevisionBucket = "decisiond-catalogs";
inline constexpr std::string_view kNodeBucket = "decisiond-catalog-nodes";
// Well under the servers' default max_payload (1 MB), so that a server configured lower
// still takes it and one chunk is a few milliseconds on the wire.
inline constexpr size_t kChunkBytes = 512 << 10;
// Nodes write their report on every change and at least this often, so that status tells a
// node that stopped (its report ages) from one that serves.
inline constexpr std::chrono::seconds kNodeReportInterval{30};
// The node bucket keeps a report this long: a node gone for a day drops out of status.
inline constexpr std::chrono::hours kNodeReportMaxAge{24};

std::string catalog_stream(std::string_view name);                   // decisiond-catalog-<name>
std::string catalog_subjects(std::string_view name);                 // decisiond.catalog.<name>.>
std::string revision_subject(std::string_view name, uint64_t revision);
nats_jetstream::BlobPlace revision_place(std::string_view name, uint64_t revision);
// <name>.<node id>, the node id's characters that a key may not hold replaced by '_'.
std::string node_key(std::string_view name, std::string_view node_id);
std::string node_keys(std::string_view name);                        // <name>.>

// The key <name> of the revision bucket: one published revision.
struct RevisionRecord {
  uint64_t revision = 0;             // 1, 2, 3...: the previous record's plus one
  nats_jetstream::StoredBlob blob;   // where its bytes are and how to check them
  int64_t published_unix_ms = 0;
  std::string catalog_revision;      // the catalog's own "revision" member
  uint64_t ads = 0;
};

std::string to_json(const RevisionRecord& record);
absl::StatusOr<RevisionRecord> parse_revision_record(std::string_view json);

// The key <name>.<node id> of the node bucket: what one node serves of <name>.
struct NodeReport {
  std::string node_id;
  uint64_t revision = 0;        // the revision served; 0: none from NATS yet (or an upload replaced it)
  std::string sha256;           // of the revision served
  std::string catalog_revision;
  uint64_t ads = 0;
  int64_t loaded_unix_ms = 0;   // when every core served it
  std::string waiting;          // why the node serves no revision yet; empty once it does
  uint64_t failed_revision = 0; // the last revision this node could not fetch or build; 0: none
  std::string error;            // why
  int64_t failed_unix_ms = 0;
  int64_t reported_unix_ms = 0; // nodes write their report on every change and every kNodeReportInterval
};

std::string to_json(const NodeReport& report);
absl::StatusOr<NodeReport> parse_node_report(std::string_view json);

// "2026-11-25T10:00:00.123Z"; "" for 0.
std::string rfc3339_ms(int64_t unix_ms);

}  // namespace service
