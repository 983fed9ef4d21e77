#pragma once
// One line of the event log (docs/events.md): a decision's creative, or a
// tracking call. Strings are views into the caller's data, valid during append().
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tracking::events {

struct EventRecord {
  int64_t time_ms = 0;
  // "decision", "impression", "click", "custom", "video", "error",
  // "verification_not_executed", or "unknown" (a kind this build cannot name).
  std::string_view kind;
  // The custom event's name, the video milestone, or the verification's vendor; else empty.
  std::string_view name;
  uint64_t ad = 0;
  uint64_t creative = 0;
  uint64_t placement = 0;
  std::array<uint8_t, 16> request_id{};
  std::optional<std::string_view> user;  // only when the user id may be used
  uint32_t core = 0;
  // Tracking events only.
  bool tracking = false;
  bool duplicate = false;  // an impression token already counted
  int64_t issued_s = 0;
  int64_t expires_s = 0;
  uint64_t token_id = 0;   // impressions: the dedup id, to rebuild the dedup set at start
  // Cluster mode, impressions only: "unapplied" when the shared cap store did not take it in
  // time (whether it repeats an earlier one is not known yet: it is applied again later);
  // "reapplied" on the line that applied it later, whose duplicate says what it was.
  // Empty otherwise (not written).
  std::string_view store;
  uint64_t attempt = 0;  // with store "unapplied" or "reapplied": the stamp it is sent again with (not written when 0)
  std::optional<int> code; // player errors: the VAST error code
  std::optional<int> reason;  // verification_not_executed: the player's VAST reason code
  uint8_t kind_code = 0;   // the token's kind byte (kept for unknown kinds)
  // Tracking events only: "robot" for a declared robot's call (docs/invalid-traffic.md),
  // which counts toward nothing; empty otherwise (not written).
  std::string_view invalid;
};

}  // namespace tracking::events
