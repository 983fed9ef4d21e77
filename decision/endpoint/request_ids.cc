#include "decision/endpoint/request_ids.h"

namespace decision::endpoint {

RequestIds::RequestIds(int64_t process_start_wall_ns, uint32_t core_index) {
  const auto start = static_cast<uint64_t>(process_start_wall_ns);
  for (int i = 0; i < 8; ++i) prefix_[i] = static_cast<uint8_t>(start >> (56 - 8 * i));
  prefix_[8] = static_cast<uint8_t>(core_index >> 8);
  prefix_[9] = static_cast<uint8_t>(core_index);
}

tracking::RequestId RequestIds::next() {
  tracking::RequestId id = prefix_;
  const uint64_t sequence = sequence_++;
  for (int i = 0; i < 6; ++i) id[10 + i] = static_cast<uint8_t>(sequence >> (40 - 8 * i));
  return id;
}

}  // namespace decision::endpoint
