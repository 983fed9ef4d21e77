#include "tracking/state/snapshot_format.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>

namespace tracking::state {

namespace {

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

template <typename T>
bool take(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

bool take_framed(std::string_view& in, std::string_view& value) {
  uint32_t size = 0;
  if (!take(in, size) || in.size() < size) return false;
  value = in.substr(0, size);
  in.remove_prefix(size);
  return true;
}

}  // namespace

std::string snapshots_dir(std::string_view state_dir) { return std::string(state_dir) + "/snapshots"; }

std::string snapshot_path(std::string_view state_dir, uint32_t core) {
  return snapshots_dir(state_dir) + "/core-" + std::to_string(core) + ".snap";
}

void append_header(const SnapshotHeader& header, std::string& out) {
  out.append(kSnapshotMagic);
  put(out, header.core);
  put(out, header.cores);
  put(out, header.shards);
  put(out, header.start_seq);
  put(out, header.written_s);
}

void append_counted(const impressions::CountedByAd& counted, std::string& out) {
  put(out, static_cast<uint32_t>(counted.size()));
  for (const auto& [ad, impressions] : counted) {
    put(out, ad);
    put(out, impressions);
  }
}

void append_shard(uint64_t seq, std::string_view caps_bytes, std::string_view dedup_bytes, std::string& out) {
  put(out, seq);
  put(out, static_cast<uint32_t>(caps_bytes.size()));
  out.append(caps_bytes);
  put(out, static_cast<uint32_t>(dedup_bytes.size()));
  out.append(dedup_bytes);
}

absl::StatusOr<SnapshotView> parse_snapshot(std::string_view bytes) {
  const size_t trailer = sizeof(uint64_t) + kSnapshotEndMagic.size();
  const bool with_counts = bytes.starts_with(kSnapshotMagic);
  if (bytes.size() < kSnapshotMagic.size() + trailer ||
      !(with_counts || bytes.starts_with(kSnapshotMagicWithoutCounts)) || !bytes.ends_with(kSnapshotEndMagic)) {
    return absl::DataLossError("not a whole snapshot (torn, or another file)");
  }
  const std::string_view body = bytes.substr(0, bytes.size() - trailer);
  uint64_t checksum = 0;
  std::memcpy(&checksum, bytes.data() + body.size(), sizeof(checksum));
  if (XXH3_64bits(body.data(), body.size()) != checksum) return absl::DataLossError("checksum mismatch");

  std::string_view in = body.substr(kSnapshotMagic.size());
  SnapshotView view;
  SnapshotHeader& h = view.header;
  if (!take(in, h.core) || !take(in, h.cores) || !take(in, h.shards) || !take(in, h.start_seq) ||
      !take(in, h.written_s) || h.cores == 0 || h.core >= h.cores) {
    return absl::DataLossError("bad header");
  }
  view.has_counted = with_counts;
  if (with_counts) {
    uint32_t n = 0;
    if (!take(in, n) || in.size() / (2 * sizeof(uint64_t)) < n) return absl::DataLossError("truncated counts");
    view.counted.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t ad = 0, impressions = 0;
      take(in, ad);
      take(in, impressions);
      view.counted[ad] = impressions;
    }
  }
  view.shards.resize(h.shards);
  for (SnapshotShard& shard : view.shards) {
    if (!take(in, shard.seq) || !take_framed(in, shard.caps) || !take_framed(in, shard.dedup)) {
      return absl::DataLossError("truncated shard");
    }
  }
  if (!in.empty()) return absl::DataLossError("bytes after the last shard");
  return view;
}

absl::StatusOr<SnapshotHeader> read_snapshot_header(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return errno == ENOENT ? absl::NotFoundError(path) : absl::UnavailableError(path + ": " + std::strerror(errno));
  }
  constexpr size_t kHeaderBytes = kSnapshotMagic.size() + 3 * sizeof(uint32_t) + sizeof(uint64_t) + sizeof(int64_t);
  char head[kHeaderBytes];
  char end[kSnapshotEndMagic.size()];
  struct stat st {};
  const bool read = ::fstat(fd, &st) == 0 && st.st_size >= static_cast<off_t>(kHeaderBytes + sizeof(end)) &&
                    ::pread(fd, head, sizeof(head), 0) == static_cast<ssize_t>(sizeof(head)) &&
                    ::pread(fd, end, sizeof(end), st.st_size - static_cast<off_t>(sizeof(end))) ==
                        static_cast<ssize_t>(sizeof(end));
  ::close(fd);
  std::string_view in(head, sizeof(head));
  if (!read || !(in.starts_with(kSnapshotMagic) || in.starts_with(kSnapshotMagicWithoutCounts)) ||
      std::string_view(end, sizeof(end)) != kSnapshotEndMagic) {
    return absl::DataLossError(path + ": not a whole snapshot");
  }
  in.remove_prefix(kSnapshotMagic.size());
  SnapshotHeader h;
  if (!take(in, h.core) || !take(in, h.cores) || !take(in, h.shards) || !take(in, h.start_seq) || !take(in, h.written_s)) {
    return absl::DataLossError(path + ": bad header");
  }
  return h;
}

}  // namespace tracking::state
