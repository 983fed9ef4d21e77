#pragma once
// The validation errors of one request, in document order, with their JSON paths rendered
// into a fixed buffer: no allocation, whatever the request. Reused across requests.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "decision/request/json_path.h"
#include "http/error_body.h"

namespace decision::request {

class ErrorList {
 public:
  // Every error of a request is reported (docs/errors.md) up to these bounds; past them
  // errors are counted in dropped() and left out, so a hostile body cannot make the 422
  // reply grow without bound. A valid-shaped request with every field wrong stays far below.
  static constexpr size_t kMaxErrors = 100;
  static constexpr size_t kPathBufferBytes = 8 * 1024;
  static constexpr size_t kMaxPathBytes = 256;

  void clear();
  // code and message must outlive the list (they are the reader's string constants).
  void add(int code, std::string_view message, const JsonPath& path);
  void add_without_field(int code, std::string_view message);
  // Forgets the errors at `path` and below it: the value they were about was replaced by a
  // later duplicate of its key (last one wins).
  void forget_under(const JsonPath& path);

  std::span<const http::ErrorItem> items() const { return {items_.data(), count_}; }
  bool empty() const { return count_ == 0; }
  uint32_t dropped() const { return dropped_; }

 private:
  std::array<http::ErrorItem, kMaxErrors> items_{};
  size_t count_ = 0;
  uint32_t dropped_ = 0;
  std::array<char, kPathBufferBytes> paths_{};
  size_t paths_used_ = 0;
};

}  // namespace decision::request
