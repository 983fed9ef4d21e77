#pragma once
// A JetStream publish acknowledgement as the stream's leader sends it to the reply subject:
//   {"stream":"S","seq":5}   {"stream":"S","seq":5,"duplicate":true}
//   {"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"}}
// Read by hand: two members of a short, server-written object do not need a JSON parser
// on the answer thread.
#include <cstdint>
#include <optional>
#include <string_view>

namespace nats_jetstream {

struct PubAck {
  uint64_t stream_seq = 0;
  bool duplicate = false;
  std::string_view error;  // the description; non-empty for a refusal
};

// nullopt when the body is neither an acknowledgement nor an error.
std::optional<PubAck> parse_pub_ack(std::string_view body);

}  // namespace nats_jetstream
