#include "tracking/events/event_line.h"

#include <simdjson.h>

#include <charconv>

namespace tracking::events {

namespace {

void append_uint(std::string& out, uint64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  out.append(digits, result.ptr);
}

void append_int(std::string& out, int64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  out.append(digits, result.ptr);
}

void append_hex(std::string& out, const uint8_t* bytes, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
}

// JSON string escaping (RFC 8259): quotes, backslashes and control characters; the rest,
// UTF-8 included, as is. User ids and event names come from clients and catalogs.
void append_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      out.append("\\u00");
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

template <typename T>
void optional_member(simdjson::simdjson_result<T> result, T& out) {
  T value;
  if (std::move(result).get(value) == simdjson::SUCCESS) out = value;
}

void member(std::string& out, std::string_view name) {
  out.append(",\"");
  out.append(name);
  out.append("\":");
}

}  // namespace

void append_event_line(const EventRecord& r, uint64_t seq, std::string& out) {
  out.append("{\"seq\":");
  append_uint(out, seq);
  member(out, "time_ms");
  append_int(out, r.time_ms);
  member(out, "kind");
  append_string(out, r.kind);
  if (!r.name.empty()) {
    member(out, "event");
    append_string(out, r.name);
  }
  member(out, "ad");
  append_uint(out, r.ad);
  member(out, "creative");
  append_uint(out, r.creative);
  member(out, "placement");
  append_uint(out, r.placement);
  member(out, "request");
  out.push_back('"');
  append_hex(out, r.request_id.data(), r.request_id.size());
  out.push_back('"');
  if (r.user) {
    member(out, "user");
    append_string(out, *r.user);
  }
  member(out, "core");
  append_uint(out, r.core);
  if (r.tracking) {
    member(out, "duplicate");
    out.append(r.duplicate ? "true" : "false");
    member(out, "issued_s");
    append_int(out, r.issued_s);
    member(out, "expires_s");
    append_int(out, r.expires_s);
    if (r.kind == "impression") {
      member(out, "token");
      out.push_back('"');
      uint8_t id[8];
      for (int i = 0; i < 8; ++i) id[i] = static_cast<uint8_t>(r.token_id >> (56 - 8 * i));
      append_hex(out, id, sizeof(id));
      out.push_back('"');
      if (!r.store.empty()) {
        member(out, "store");
        append_string(out, r.store);
      }
      if (r.attempt != 0) {
        member(out, "attempt");
        out.push_back('"');
        uint8_t stamp[8];
        for (int i = 0; i < 8; ++i) stamp[i] = static_cast<uint8_t>(r.attempt >> (56 - 8 * i));
        append_hex(out, stamp, sizeof(stamp));
        out.push_back('"');
      }
    }
    if (r.code) {
      member(out, "code");
      append_int(out, *r.code);
    }
    if (r.reason) {
      member(out, "reason");
      append_int(out, *r.reason);
    }
    if (r.kind == "unknown") {
      member(out, "kind_code");
      append_uint(out, r.kind_code);
    }
    if (!r.invalid.empty()) {
      member(out, "invalid");
      append_string(out, r.invalid);
    }
  }
  out.append("}\n");
}

struct EventLineParser::State {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
};

EventLineParser::EventLineParser() : state_(new State) {}
EventLineParser::~EventLineParser() { delete state_; }

bool EventLineParser::parse(std::string_view line, ParsedEvent& out) {
  out = ParsedEvent{};
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.empty() || line.front() != '{' || line.back() != '}') return false;
  out.line = line;
  if (state_->parser.parse(line.data(), line.size()).get(state_->root) != simdjson::SUCCESS) return false;
  simdjson::dom::object object;
  if (state_->root.get_object().get(object) != simdjson::SUCCESS) return false;
  // Every line has these; a line without them is not ours.
  if (object["seq"].get_uint64().get(out.seq) != simdjson::SUCCESS) return false;
  if (object["time_ms"].get_int64().get(out.time_ms) != simdjson::SUCCESS) return false;
  if (object["kind"].get_string().get(out.kind) != simdjson::SUCCESS) return false;
  // Members a line of its kind may leave out keep their defaults.
  optional_member(object["event"].get_string(), out.name);
  optional_member(object["ad"].get_uint64(), out.ad);
  optional_member(object["creative"].get_uint64(), out.creative);
  optional_member(object["placement"].get_uint64(), out.placement);
  optional_member(object["request"].get_string(), out.request);
  std::string_view user;
  if (object["user"].get_string().get(user) == simdjson::SUCCESS) out.user = user;
  uint64_t core = 0;
  if (object["core"].get_uint64().get(core) == simdjson::SUCCESS) out.core = static_cast<uint32_t>(core);
  bool duplicate = false;
  if (object["duplicate"].get_bool().get(duplicate) == simdjson::SUCCESS) {
    out.tracking = true;
    out.duplicate = duplicate;
  }
  optional_member(object["issued_s"].get_int64(), out.issued_s);
  optional_member(object["expires_s"].get_int64(), out.expires_s);
  std::string_view token;
  if (object["token"].get_string().get(token) == simdjson::SUCCESS) {
    if (token.size() != 16) return false;
    uint64_t id = 0;
    if (std::from_chars(token.data(), token.data() + 16, id, 16).ptr != token.data() + 16) return false;
    out.token_id = id;
  }
  optional_member(object["store"].get_string(), out.store);
  std::string_view attempt;
  if (object["attempt"].get_string().get(attempt) == simdjson::SUCCESS) {
    if (attempt.size() != 16 || std::from_chars(attempt.data(), attempt.data() + 16, out.attempt, 16).ptr !=
                                    attempt.data() + 16) {
      return false;
    }
  }
  int64_t code = 0;
  if (object["code"].get_int64().get(code) == simdjson::SUCCESS) out.code = code;
  int64_t reason = 0;
  if (object["reason"].get_int64().get(reason) == simdjson::SUCCESS) out.reason = reason;
  optional_member(object["invalid"].get_string(), out.invalid);
  return true;
}

}  // namespace tracking::events
