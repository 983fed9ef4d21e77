#include "tracking/event_shipping/ship_run.h"

namespace tracking::event_shipping {

void RunBuilder::clear() {
  extent_ = RunExtent{};
  bytes_.clear();
}

bool RunBuilder::fits(const ShippableLine& line, const RunBounds& bounds) const {
  if (empty()) return true;
  const bool contiguous = line.position.file_first_seq == extent_.position.file_first_seq &&
                          line.position.offset == extent_.position.offset + extent_.length;
  return contiguous && extent_.lines < bounds.max_lines && uint64_t{extent_.length} + line.length <= bounds.max_bytes;
}

void RunBuilder::add(const ShippableLine& line) {
  if (empty()) {
    extent_.first_seq = line.seq;
    extent_.time_ms = line.time_ms;
    extent_.position = line.position;
  }
  extent_.last_seq = line.seq;
  ++extent_.lines;
  extent_.length += line.length;
  bytes_.append(line.bytes);
  bytes_.push_back('\n');
}

}  // namespace tracking::event_shipping
