#include "nats_jetstream/pub_ack.h"

namespace nats_jetstream {

namespace {
// The value after "<member>": in body, whitespace skipped; empty when absent.
std::string_view value_of(std::string_view body, std::string_view member) {
  const size_t at = body.find(member);
  if (at == std::string_view::npos) return {};
  size_t i = at + member.size();
  while (i < body.size() && (body[i] == ' ' || body[i] == ':')) ++i;
  return body.substr(i);
}
}  // namespace

std::optional<PubAck> parse_pub_ack(std::string_view body) {
  PubAck ack;
  if (body.find("\"error\"") != std::string_view::npos) {
    std::string_view text = value_of(body, "\"description\"");
    if (text.starts_with('"')) {
      text.remove_prefix(1);
      text = text.substr(0, text.find('"'));
    }
    ack.error = text.empty() ? std::string_view("refused without a description") : text;
    return ack;
  }
  const std::string_view seq = value_of(body, "\"seq\"");
  size_t digits = 0;
  while (digits < seq.size() && seq[digits] >= '0' && seq[digits] <= '9') {
    ack.stream_seq = ack.stream_seq * 10 + static_cast<uint64_t>(seq[digits] - '0');
    ++digits;
  }
  if (digits == 0 || digits > 19) return std::nullopt;
  ack.duplicate = value_of(body, "\"duplicate\"").starts_with("true");
  return ack;
}

}  // namespace nats_jetstream
