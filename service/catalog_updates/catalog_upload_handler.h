#pragma once
// POST /admin/catalog on one core (docs/operations.md): the body is a whole catalog. The
// request waits (a deferred reply) while the update loop builds the catalog off the
// reactors and publishes it; it is answered 200 with the new revision once every core
// serves it, or 422 10030 listing every error (JSON path in details.field, and the
// message), the running catalog kept. Admin auth is checked before (admin_guard.h).
#include <cstdint>

#include "http/router.h"
#include "runtime/core_counter.h"
#include "service/catalog_updates/upload_queue.h"

namespace service {

class CatalogUploadHandler final : public http::Handler {
 public:
  CatalogUploadHandler(uint32_t core, UploadQueue& queue) : core_(core), queue_(queue) {}

  void handle(const http::Request& request, http::Response& response) override;
  // On this handler's core, when the update loop hands the upload back: answers the waiting
  // request (if its client is still there) and frees the upload.
  void finish(CatalogUpload* upload);

  uint64_t uploads() const { return uploads_.get(); }

 private:
  const uint32_t core_;
  UploadQueue& queue_;
  runtime::CoreCounter uploads_;
};

}  // namespace service
