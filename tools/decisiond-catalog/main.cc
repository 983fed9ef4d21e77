// decisiond-catalog: publishes catalogs to NATS JetStream for the nodes started with
// --catalog=nats://.../<name>, and lists what each node serves (docs/catalog-publication.md).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "tools/decisiond-catalog/command_line.h"
#include "tools/decisiond-catalog/publish_command.h"
#include "tools/decisiond-catalog/status_command.h"

namespace {

namespace catalog = tools::decisiond_catalog;

constexpr int kFailedExit = 1;  // NATS unreachable or refusing; another publish came first
constexpr int kUsageExit = 2;   // also an unreadable file or a refused catalog

int failed(const absl::Status& status) {
  std::fprintf(stderr, "decisiond-catalog: %s\n", std::string(status.message()).c_str());
  return absl::IsInvalidArgument(status) ? kUsageExit : kFailedExit;
}

int run_publish(const catalog::CommandLine& line) {
  const absl::StatusOr<catalog::Published> published = catalog::publish_catalog(line);
  if (!published.ok()) return failed(published.status());
  std::fputs(published->notes.c_str(), stderr);
  const service::RevisionRecord& r = published->record;
  std::printf("published %s revision %llu: catalog \"%s\", %llu ads, %llu bytes in %u chunks, sha256 %s "
              "(checked in %lld ms, stored in %lld ms)\n",
              line.to.name.c_str(), static_cast<unsigned long long>(r.revision), r.catalog_revision.c_str(),
              static_cast<unsigned long long>(r.ads), static_cast<unsigned long long>(r.blob.bytes), r.blob.chunks,
              r.blob.sha256_hex.c_str(), static_cast<long long>(published->build_ms),
              static_cast<long long>(published->store_ms));
  return 0;
}

int run_status(const catalog::CommandLine& line) {
  const absl::StatusOr<catalog::CatalogStatus> status = catalog::read_status(line);
  if (!status.ok()) return failed(status.status());
  std::fputs(catalog::status_text(*status, line.json).c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  const absl::StatusOr<catalog::CommandLine> line = catalog::parse_command_line(args);
  if (!line.ok()) {
    std::fprintf(stderr, "decisiond-catalog: %s\n\n%s", std::string(line.status().message()).c_str(),
                 std::string(catalog::usage()).c_str());
    return kUsageExit;
  }
  if (line->help) {
    std::fputs(std::string(catalog::usage()).c_str(), stdout);
    return 0;
  }
  return line->command == catalog::Command::kPublish ? run_publish(*line) : run_status(*line);
}
