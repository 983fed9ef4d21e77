#include "decision/request/error_list.h"

#include <algorithm>

namespace decision::request {

void ErrorList::clear() {
  count_ = 0;
  dropped_ = 0;
  paths_used_ = 0;
}

void ErrorList::add_without_field(int code, std::string_view message) {
  if (count_ == kMaxErrors) {
    ++dropped_;
    return;
  }
  items_[count_++] = http::ErrorItem{code, message, {}};
}

void ErrorList::add(int code, std::string_view message, const JsonPath& path) {
  const size_t room = std::min(kMaxPathBytes, kPathBufferBytes - paths_used_);
  if (count_ == kMaxErrors || room == 0) {
    ++dropped_;
    return;
  }
  std::span<char> out(paths_.data() + paths_used_, room);
  // A path too long to render (a long custom key) names its longest ancestor that fits.
  size_t length = 0;
  for (size_t segments = path.size(); segments > 0 && length == 0; --segments) {
    length = path.render(out, segments);
  }
  if (length == 0 && path.size() > 0) {
    ++dropped_;
    return;
  }
  items_[count_++] = http::ErrorItem{code, message, std::string_view(out.data(), length)};
  paths_used_ += length;
}

void ErrorList::forget_under(const JsonPath& path) {
  if (count_ == 0) return;
  std::array<char, kMaxPathBytes> buffer;
  const size_t length = path.render(buffer);
  if (length == 0) return;
  const std::string_view prefix(buffer.data(), length);
  const auto under = [prefix](const http::ErrorItem& item) {
    const std::string_view field = item.field;
    if (!field.starts_with(prefix)) return false;
    return field.size() == prefix.size() || field[prefix.size()] == '.' ||
           field[prefix.size()] == '[';
  };
  const auto end = std::remove_if(items_.begin(), items_.begin() + count_, under);
  count_ = static_cast<size_t>(end - items_.begin());
}

}  // namespace decision::request
