#include "http/json_writer.h"

#include <charconv>
#include <cmath>

#include "runtime/check.h"

namespace http {

namespace {
constexpr char kHex[] = "0123456789abcdef";

// Length of the valid UTF-8 sequence at text[i], or 0 when it is not valid.
size_t utf8_sequence_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  const size_t left = text.size() - i;
  const auto cont = [&](size_t k) { return k < text.size() && (byte(k) & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return left >= 2 && cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (left < 3 || !cont(i + 1) || !cont(i + 2)) return 0;
    const unsigned char c1 = byte(i + 1);
    if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
    if (c == 0xED && c1 > 0x9F) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (left < 4 || !cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    const unsigned char c1 = byte(i + 1);
    if (c == 0xF0 && c1 < 0x90) return 0;  // overlong
    if (c == 0xF4 && c1 > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}
}  // namespace

void JsonWriter::append_escaped(std::string& out, std::string_view text) {
  size_t run_start = 0;
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      const size_t n = utf8_sequence_length(text, i);
      if (n != 0) {
        i += n;
        continue;
      }
    }
    out.append(text.data() + run_start, i - run_start);
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      default:
        if (c < 0x20) {
          const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          out.append(escape, 6);
        } else {
          out.append("\\ufffd");  // a byte that is not UTF-8
        }
    }
    ++i;
    run_start = i;
  }
  out.append(text.data() + run_start, text.size() - run_start);
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ > 0) {
    const uint64_t bit = uint64_t{1} << (depth_ - 1);
    if (has_items_ & bit) out_.push_back(',');
    has_items_ |= bit;
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_.push_back('{');
  // One bit of has_items_ per level: a deeper level would shift past the word.
  DECISIOND_CHECK_MSG(depth_ < kMaxDepth, "JSON nested deeper than the writer's bound");
  ++depth_;
  has_items_ &= ~(uint64_t{1} << (depth_ - 1));
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  DECISIOND_CHECK_MSG(depth_ > 0, "JSON object ended that was never begun");
  --depth_;
  out_.push_back('}');
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_.push_back('[');
  // One bit of has_items_ per level: a deeper level would shift past the word.
  DECISIOND_CHECK_MSG(depth_ < kMaxDepth, "JSON nested deeper than the writer's bound");
  ++depth_;
  has_items_ &= ~(uint64_t{1} << (depth_ - 1));
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  DECISIOND_CHECK_MSG(depth_ > 0, "JSON array ended that was never begun");
  --depth_;
  out_.push_back(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  out_.push_back('"');
  append_escaped(out_, name);
  out_.append("\":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::literal_key(std::string_view name) {
  before_value();
  out_.push_back('"');
  out_.append(name);
  out_.append("\":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view value) {
  before_value();
  out_.push_back('"');
  append_escaped(out_, value);
  out_.push_back('"');
  return *this;
}

std::string& JsonWriter::begin_verbatim_string() {
  before_value();
  out_.push_back('"');
  return out_;
}

JsonWriter& JsonWriter::end_verbatim_string() {
  out_.push_back('"');
  return *this;
}

JsonWriter& JsonWriter::number(int64_t value) {
  before_value();
  char text[24];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  out_.append(text, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::number(uint64_t value) {
  before_value();
  char text[24];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  out_.append(text, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::number(double value) {
  if (!std::isfinite(value)) return null();  // JSON has no NaN or infinity
  before_value();
  char text[32];
  // Shortest text that reads back as the same double.
  const auto result = std::to_chars(text, text + sizeof(text), value);
  out_.append(text, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
  before_value();
  out_.append(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_.append("null");
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_.append(json);
  return *this;
}

}  // namespace http
