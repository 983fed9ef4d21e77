#include "runtime/open_files_limit.h"

#include <sys/resource.h>

#include <cerrno>

namespace runtime {

namespace {
uint64_t as_count(rlim_t value) { return value == RLIM_INFINITY ? UINT64_MAX : static_cast<uint64_t>(value); }
}  // namespace

OpenFilesLimit raise_open_files_limit() {
  OpenFilesLimit result;
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    result.error = errno;
    return result;
  }
  result.soft_before = result.soft = as_count(limit.rlim_cur);
  result.hard = as_count(limit.rlim_max);
  if (limit.rlim_cur == limit.rlim_max) return result;
  struct rlimit raised = limit;
  raised.rlim_cur = limit.rlim_max;
  if (::setrlimit(RLIMIT_NOFILE, &raised) != 0) {
    result.error = errno;
    return result;
  }
  result.soft = result.hard;
  return result;
}

}  // namespace runtime
