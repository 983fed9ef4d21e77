#pragma once
// decisiond-catalog publish: the catalog built as a node builds it, then stored as the
// name's next revision (service/catalog_updates/nats_catalog_layout.h): its chunks first,
// each acknowledged, then the record, written only over the revision read before, so two
// publishes at once cannot both win; then the revisions before the previous one purged.
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "service/catalog_updates/nats_catalog_layout.h"
#include "tools/decisiond-catalog/command_line.h"

namespace tools::decisiond_catalog {

struct Published {
  service::RevisionRecord record;
  uint64_t previous_revision = 0;  // 0: the first
  int64_t build_ms = 0;            // the builder's check
  int64_t store_ms = 0;            // chunks and record
  std::string notes;               // lines for standard error: a stream unlike the spec, a purge that failed
};

// InvalidArgument (exit 2): the file cannot be read, or the builder refuses it (every
// error, one per line; nothing published). Aborted: another publish came first. Other
// errors: NATS unreachable or refusing.
absl::StatusOr<Published> publish_catalog(const CommandLine& line);

}  // namespace tools::decisiond_catalog
