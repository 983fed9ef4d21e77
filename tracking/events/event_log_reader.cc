#include "tracking/events/event_log_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <optional>
#include <string_view>

#include "tracking/events/log_files.h"

namespace tracking::events {

namespace {

// A read-only mapping of a whole file; empty when it cannot be read.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* data = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (data != MAP_FAILED) {
        data_ = static_cast<const char*>(data);
        size_ = static_cast<size_t>(st.st_size);
        ::madvise(data, size_, MADV_SEQUENTIAL);
      }
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  std::string_view view() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

// The seq of a line as written ({"seq":N,...}), read without parsing the line; nullopt for
// anything else.
std::optional<uint64_t> seq_prefix(std::string_view line) {
  constexpr std::string_view kPrefix = "{\"seq\":";
  if (!line.starts_with(kPrefix)) return std::nullopt;
  uint64_t seq = 0;
  size_t i = kPrefix.size();
  if (i >= line.size() || line[i] < '0' || line[i] > '9') return std::nullopt;
  for (; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) seq = seq * 10 + static_cast<uint64_t>(line[i] - '0');
  return seq;
}

// Where in a file's bytes the first line with seq >= from starts (lines are in seq order):
// a binary search over byte offsets, each probe reading the seq of the line after it, so
// start-up skips the part of a file its snapshot covers without parsing it.
size_t first_line_from(std::string_view bytes, uint64_t from) {
  size_t low = 0, high = bytes.size();  // the answer lies in [low, high]
  while (high - low > 4096) {
    const size_t middle = low + (high - low) / 2;
    const size_t start = bytes.find('\n', middle);
    if (start == std::string_view::npos || start + 1 >= high) {
      high = middle;
      continue;
    }
    const std::optional<uint64_t> seq = seq_prefix(bytes.substr(start + 1, 32));
    if (!seq) break;  // an unexpected line: fall back to reading from low
    if (*seq < from) {
      low = start + 1;
    } else {
      high = start + 1;
    }
  }
  return low;  // at a line start: 0 or just after a newline
}

}  // namespace

ReadStats read_core_log(const std::string& core_directory, uint64_t from_seq,
                        const std::function<void(const ParsedEvent&)>& visit) {
  ReadStats stats;
  const std::vector<LogFile> files = list_log_files(core_directory);
  size_t first = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].first_seq <= from_seq) first = i;
  }
  EventLineParser parser;
  ParsedEvent event;
  for (size_t i = first; i < files.size(); ++i) {
    const MappedFile file(files[i].path);
    std::string_view rest = file.view();
    ++stats.files;
    if (i == first && from_seq > files[i].first_seq) rest.remove_prefix(first_line_from(rest, from_seq));
    stats.bytes += rest.size();
    while (!rest.empty()) {
      const size_t end = rest.find('\n');
      if (end == std::string_view::npos) {  // no newline: a line the crash cut short
        ++stats.torn_lines;
        break;
      }
      const std::string_view line = rest.substr(0, end + 1);
      if (!parser.parse(line, event)) {
        ++stats.torn_lines;
        // Zeros in it: a hole, a write that never landed while a later one did (the writer's
        // writes may land in any order, runtime/line_log.h; then a crash, or a disk that
        // refused to the end). The later write starts a line: read on from the hole's end.
        if (const size_t hole = line.find('\0'); hole != std::string_view::npos) {
          rest.remove_prefix(hole);
          while (!rest.empty() && rest.front() == '\0') rest.remove_prefix(1);
          continue;
        }
        rest.remove_prefix(end + 1);
        continue;
      }
      rest.remove_prefix(end + 1);
      if (event.seq < from_seq) continue;
      ++stats.lines;
      visit(event);
    }
  }
  return stats;
}

}  // namespace tracking::events
