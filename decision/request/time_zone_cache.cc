#include "decision/request/time_zone_cache.h"

#include "decision/request/decision_request.h"
#include "runtime/absl_view.h"

namespace decision::request {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool is_name_char(char c) {
  return is_letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '+' || c == '-';
}

}  // namespace

TimeZoneCache::TimeZoneCache() { entries_.reserve(kMaxEntries); }

bool TimeZoneCache::is_zone_name_syntax(std::string_view name) {
  if (name.empty() || name.size() > kMaxTimeZoneNameBytes) return false;
  if (name.starts_with("posix/") || name.starts_with("right/")) return false;
  if (name == "localtime") return false;  // cctz reads $TZ or /etc/localtime for it
  bool part_start = true;
  for (char c : name) {
    if (c == '/') {
      if (part_start) return false;  // empty part: leading '/' (an absolute path) or "//"
      part_start = true;
      continue;
    }
    if (part_start ? !is_letter(c) : !is_name_char(c)) return false;
    part_start = false;
  }
  return !part_start;  // no trailing '/'
}

std::optional<absl::TimeZone> TimeZoneCache::find(std::string_view name) {
  if (!is_zone_name_syntax(name)) return std::nullopt;
  if (auto it = entries_.find(runtime::av(name)); it != entries_.end()) return it->second;
  ++loads_;
  absl::TimeZone zone;
  std::optional<absl::TimeZone> found;
  if (absl::LoadTimeZone(runtime::av(name), &zone)) found = zone;
  if (entries_.size() < kMaxEntries) {
    entries_.emplace(std::string(name), found);
  } else {
    ++uncached_;
  }
  return found;
}

}  // namespace decision::request
