#include "tracking/events/event_log_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
    stats.bytes += rest.size();
    while (!rest.empty()) {
      const size_t end = rest.find('\n');
      if (end == std::string_view::npos) {  // no newline: a line the crash cut short
        ++stats.torn_lines;
        break;
      }
      const std::string_view line = rest.substr(0, end + 1);
      rest.remove_prefix(end + 1);
      if (!parser.parse(line, event)) {
        ++stats.torn_lines;
        continue;
      }
      if (event.seq < from_seq) continue;
      ++stats.lines;
      visit(event);
    }
  }
  return stats;
}

}  // namespace tracking::events
