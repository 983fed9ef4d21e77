#include "decision/request/json_path.h"

#include <charconv>

#include "runtime/check.h"

namespace decision::request {
namespace {

bool is_plain_name(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!plain) return false;
  }
  return true;
}

class Cursor {
 public:
  explicit Cursor(std::span<char> out) : out_(out) {}
  void put(char c) {
    if (used_ < out_.size()) out_[used_] = c;
    ++used_;
  }
  void put(std::string_view s) {
    for (char c : s) put(c);
  }
  void put_escaped(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (char c : s) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        put('\\');
        put(c);
      } else if (byte < 0x20) {
        put("\\u00");
        put(kHex[byte >> 4]);
        put(kHex[byte & 0xf]);
      } else {
        put(c);  // the body passed UTF-8 validation, so the bytes stay valid
      }
    }
  }
  void put(uint32_t n) {
    char digits[10];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
    put(std::string_view(digits, static_cast<size_t>(end - digits)));
  }
  size_t finish() const { return used_ <= out_.size() ? used_ : 0; }

 private:
  std::span<char> out_;
  size_t used_ = 0;
};

}  // namespace

// Past kMaxSegments a push is only counted, so an error that deep names an ancestor.
// Fields are stored one by one: building a Segment and copying it whole made the copy
// wait on the stores that built it (a store-forwarding stall, measured at ~18% of a read).
void JsonPath::push_key(std::string_view key) {
  if (size_ < kMaxSegments && hidden_ == 0) {
    Segment& s = segments_[size_++];
    s.key = key;
    s.is_index = false;
  } else {
    ++hidden_;
  }
}

void JsonPath::push_index(uint32_t index) {
  if (size_ < kMaxSegments && hidden_ == 0) {
    Segment& s = segments_[size_++];
    s.index = index;
    s.is_index = true;
  } else {
    ++hidden_;
  }
}

void JsonPath::pop() {
  if (hidden_ > 0) {
    --hidden_;
    return;
  }
  DECISIOND_CHECK_MSG(size_ > 0, "JSON path popped past its root");
  --size_;
}

size_t JsonPath::render(std::span<char> out, size_t segments) const {
  Cursor cursor(out);
  for (size_t i = 0; i < segments && i < size_; ++i) {
    const Segment& s = segments_[i];
    if (s.is_index) {
      cursor.put('[');
      cursor.put(s.index);
      cursor.put(']');
    } else if (is_plain_name(s.key)) {
      if (i > 0) cursor.put('.');
      cursor.put(s.key);
    } else {
      cursor.put("[\"");
      cursor.put_escaped(s.key);
      cursor.put("\"]");
    }
  }
  return cursor.finish();
}

}  // namespace decision::request
