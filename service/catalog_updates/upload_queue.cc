#include "service/catalog_updates/upload_queue.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/log/logger.h"

namespace service {

UploadQueue::UploadQueue() : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (wake_fd_ < 0) {
    constexpr runtime::log::Logger kLog("catalog");
    kLog.error_then_abort("eventfd: %s", std::strerror(errno));
  }
}

UploadQueue::~UploadQueue() {
  for (CatalogUpload* upload : uploads_) delete upload;
  ::close(wake_fd_);
}

void UploadQueue::submit(CatalogUpload* upload) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    uploads_.push_back(upload);
  }
  // Never blocks: an eventfd only refuses a write at 2^64 - 2 unread wakes.
  ::eventfd_write(wake_fd_, 1);
}

CatalogUpload* UploadQueue::take() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (uploads_.empty()) return nullptr;
  CatalogUpload* upload = uploads_.front();
  uploads_.pop_front();
  return upload;
}

void UploadQueue::clear_wake() {
  eventfd_t ignored;
  ::eventfd_read(wake_fd_, &ignored);
}

}  // namespace service
