#pragma once
// The JSON path of the value being read, kept as segments and rendered to text only when
// an error names it (`placements[0].targeting.location[1].lat`), so a valid request pays a
// push and a pop per field and nothing more.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace decision::request {

class JsonPath {
 public:
  // The deepest path we name: root field, placement, targeting, custom, key, array item.
  static constexpr size_t kMaxSegments = 8;

  void push_key(std::string_view key);
  void push_index(uint32_t index);
  void pop();
  size_t size() const { return size_; }
  void clear() { size_ = hidden_ = 0; }

  // Writes the path into out: keys joined by '.', indexes as [i], and a key that is not a
  // plain name (ASCII letters, digits, '_', '-') as ["key"], JSON-escaped. Renders only the
  // first `segments` segments. Returns the bytes written, or 0 when it does not fit.
  size_t render(std::span<char> out, size_t segments) const;
  size_t render(std::span<char> out) const { return render(out, size_); }

 private:
  struct Segment {
    std::string_view key;
    uint32_t index = 0;
    bool is_index = false;
  };
  std::array<Segment, kMaxSegments> segments_{};
  size_t size_ = 0;
  size_t hidden_ = 0;  // pushes beyond kMaxSegments, not rendered
};

// Pushes a segment for the lifetime of a scope.
class PathScope {
 public:
  PathScope(JsonPath& path, std::string_view key) : path_(path) { path_.push_key(key); }
  PathScope(JsonPath& path, uint32_t index) : path_(path) { path_.push_index(index); }
  ~PathScope() { path_.pop(); }
  PathScope(const PathScope&) = delete;
  PathScope& operator=(const PathScope&) = delete;

 private:
  JsonPath& path_;
};

}  // namespace decision::request
