#pragma once
// Catalog uploads on their way from the admin handler that received them (a reactor) to
// the update loop (the main thread), which builds one at a time, oldest first: racing
// uploads are serialised, the newer wins. A mutex guards the queue: it is taken once per
// upload, on the admin plane, never on the request path; an eventfd wakes the loop.
#include <deque>
#include <mutex>
#include <string>

#include "http/reply_ticket.h"

namespace service {

class CatalogUploadHandler;

struct CatalogUpload {
  std::string body;           // the catalog, copied out of the connection's buffer
  http::ReplyTicket ticket;   // the waiting request
  uint32_t core = 0;          // the core that holds the ticket
  CatalogUploadHandler* home = nullptr;
  // The verdict, filled by the update loop before it hands the upload back.
  int status = 0;
  std::string reply_body;
};

class UploadQueue {
 public:
  UploadQueue();
  ~UploadQueue();
  UploadQueue(const UploadQueue&) = delete;
  UploadQueue& operator=(const UploadQueue&) = delete;

  // From any core. Takes ownership until the update loop hands the upload back.
  void submit(CatalogUpload* upload);
  // From the update loop: the oldest upload, or nullptr.
  CatalogUpload* take();
  // Readable when an upload may be waiting (the loop polls it, then drains it).
  int wake_fd() const { return wake_fd_; }
  void clear_wake();

 private:
  std::mutex mutex_;
  std::deque<CatalogUpload*> uploads_;
  int wake_fd_ = -1;
};

}  // namespace service
