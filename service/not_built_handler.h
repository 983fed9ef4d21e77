#pragma once
// A route whose feature has not been built yet answers 501 with the error envelope:
// honestly absent rather than pretending.
#include <string>

#include "http/error_body.h"
#include "http/router.h"

namespace service {

class NotBuiltHandler final : public http::Handler {
 public:
  explicit NotBuiltHandler(std::string what) : message_(what + " is not built yet") {}
  void handle(const http::Request&, http::Response& response) override {
    http::set_error(response, 501, 10009, message_);
  }

 private:
  std::string message_;
};

}  // namespace service
