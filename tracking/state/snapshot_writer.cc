#include "tracking/state/snapshot_writer.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "runtime/log/logger.h"
#include "tracking/state/snapshot_format.h"

namespace tracking::state {

namespace {
constexpr size_t kWriteBatchBytes = 1 << 20;
constexpr int kOpenFlags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;

void run_step(runtime::Reactor&, const runtime::Message& message) {
  static_cast<SnapshotWriter*>(message.pointer)->step();
}

void append_trailer(XXH3_state_s* checksum, std::string& out) {
  const uint64_t digest = XXH3_64bits_digest(checksum);
  out.append(reinterpret_cast<const char*>(&digest), sizeof(digest));
  out.append(kSnapshotEndMagic);
}
}  // namespace

SnapshotWriter::SnapshotWriter(runtime::FileIo& io, runtime::TimerWheel& timers, runtime::CoreChannel& channel,
                               const runtime::Clock& clock, const std::string& state_dir, CoreState& state,
                               const events::EventLog& log, int64_t interval_ms)
    : io_(io),
      timers_(timers),
      channel_(channel),
      clock_(clock),
      state_(state),
      log_(log),
      interval_ms_(interval_ms),
      path_(snapshot_path(state_dir, channel.core())),
      temporary_path_(path_ + ".tmp"),
      checksum_(XXH3_createState()) {
  std::error_code ignored;
  std::filesystem::create_directories(snapshots_dir(state_dir), ignored);
  buffer_.reserve(2 * kWriteBatchBytes);
}

SnapshotWriter::~SnapshotWriter() {
  timers_.cancel(*this);
  if (fd_ >= 0) ::close(fd_);  // the loop has ended
  XXH3_freeState(checksum_);
}

void SnapshotWriter::on_expire() {
  timers_.schedule(*this, interval_ms_);
  if (in_progress_) return;  // the last one is still being written
  in_progress_ = true;
  started_ms_ = clock_.monotonic_ns() / 1'000'000;
  next_shard_ = 0;
  file_offset_ = 0;
  buffer_.clear();
  buffer_written_ = 0;
  XXH3_64bits_reset(checksum_);
  SnapshotHeader header;
  header.core = channel_.core();
  header.cores = channel_.cores();
  header.shards = kShards;
  header.start_seq = log_.next_seq();
  header.written_s = clock_.wall_s();
  append_header(header, buffer_);
  // As of start_seq, as the header says: lines from there on are counted again at start.
  append_counted(state_.counted_by_ad, buffer_);
  io_.open(temporary_path_.c_str(), kOpenFlags, 0600, *this, kOpen);
}

void SnapshotWriter::post_step() {
  runtime::Message message;
  message.run = &run_step;
  message.pointer = this;
  // To this very core: the queue is its own and drained every loop turn, one step at a time.
  channel_.post_one_way(channel_.core(), message);
}

void SnapshotWriter::step() {
  if (!in_progress_ || write_in_flight_ || fd_ < 0) return;
  if (next_shard_ < kShards) {
    const int64_t now_s = clock_.wall_s();
    caps_scratch_.clear();
    dedup_scratch_.clear();
    state_.caps->serialize_shard(next_shard_, now_s, caps_scratch_);
    state_.dedup->serialize_shard(next_shard_, now_s, dedup_scratch_);
    // Everything this core logged before now is in the shard, nothing after.
    append_shard(log_.next_seq(), caps_scratch_, dedup_scratch_, buffer_);
    ++next_shard_;
  }
  if (next_shard_ == kShards || buffer_.size() >= kWriteBatchBytes) {
    XXH3_64bits_update(checksum_, buffer_.data(), buffer_.size());
    if (next_shard_ == kShards) append_trailer(checksum_, buffer_);
    buffer_written_ = 0;
    submit_write();
    return;
  }
  post_step();
}

void SnapshotWriter::submit_write() {
  write_in_flight_ = true;
  io_.write(fd_, buffer_.data() + buffer_written_, buffer_.size() - buffer_written_, file_offset_, *this, kWrite);
}

void SnapshotWriter::on_file_complete(uint8_t tag, int result) {
  switch (tag) {
    case kOpen:
      if (result < 0) {
        fail("create", result);
        return;
      }
      fd_ = result;
      post_step();
      return;
    case kWrite:
      write_in_flight_ = false;
      if (result <= 0) {
        fail("write", result);
        return;
      }
      buffer_written_ += static_cast<size_t>(result);
      file_offset_ += static_cast<uint64_t>(result);
      if (buffer_written_ < buffer_.size()) {
        submit_write();
        return;
      }
      buffer_.clear();
      buffer_written_ = 0;
      if (next_shard_ < kShards) {
        post_step();
      } else {
        io_.sync_data(fd_, *this, kSync);
      }
      return;
    case kSync:
      if (result < 0) {
        fail("sync", result);
        return;
      }
      io_.rename(temporary_path_.c_str(), path_.c_str(), *this, kRename);
      return;
    case kRename:
      if (result < 0) {
        fail("rename", result);
        return;
      }
      counters_.written.add();
      counters_.last_bytes.set(file_offset_);
      counters_.last_duration_ms.set(static_cast<uint64_t>(clock_.monotonic_ns() / 1'000'000 - started_ms_));
      io_.close(fd_, *this, kClose);
      fd_ = -1;
      in_progress_ = false;
      return;
    default:
      return;
  }
}

void SnapshotWriter::fail(const char* step, int result) {
  counters_.failed.add();
  // Once per interval at most: the operator learns why start-up will replay more of the log.
  constexpr runtime::log::Logger kLog("state");
  kLog.warn("snapshot not written (%s %s: %s); %s kept, tried again in %lld ms", step, temporary_path_.c_str(),
            std::strerror(result < 0 ? -result : EIO), path_.c_str(), static_cast<long long>(interval_ms_));
  if (fd_ >= 0) io_.close(fd_, *this, kClose);
  fd_ = -1;
  // What was written of it would hold space a full disk needs for the event log until the
  // next attempt; the snapshot in force is untouched. Its result is of no use (kUnlink).
  io_.unlink(temporary_path_.c_str(), *this, kUnlink);
  in_progress_ = false;
  write_in_flight_ = false;
  buffer_.clear();
}

absl::Status write_snapshot_now(const std::string& state_dir, uint32_t core, uint32_t cores, const CoreState& state,
                                int64_t now_s) {
  std::error_code error;
  std::filesystem::create_directories(snapshots_dir(state_dir), error);
  std::string bytes;
  SnapshotHeader header{core, cores, kShards, state.next_seq, now_s};
  append_header(header, bytes);
  append_counted(state.counted_by_ad, bytes);
  std::string caps_bytes, dedup_bytes;
  for (uint32_t shard = 0; shard < kShards; ++shard) {
    caps_bytes.clear();
    dedup_bytes.clear();
    state.caps->serialize_shard(shard, now_s, caps_bytes);
    state.dedup->serialize_shard(shard, now_s, dedup_bytes);
    append_shard(state.next_seq, caps_bytes, dedup_bytes, bytes);
  }
  const uint64_t digest = XXH3_64bits(bytes.data(), bytes.size());
  bytes.append(reinterpret_cast<const char*>(&digest), sizeof(digest));
  bytes.append(kSnapshotEndMagic);
  const std::string path = snapshot_path(state_dir, core);
  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), kOpenFlags, 0600);
  if (fd < 0) return absl::ErrnoToStatus(errno, "cannot create " + temporary);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      return absl::ErrnoToStatus(saved, "cannot write " + temporary);
    }
    done += static_cast<size_t>(n);
  }
  const bool synced = ::fdatasync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(temporary.c_str(), path.c_str()) != 0) {
    return absl::ErrnoToStatus(errno, "cannot put " + path + " in place");
  }
  return absl::OkStatus();
}

}  // namespace tracking::state
