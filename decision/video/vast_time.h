#pragma once
// VAST's clock texts: a linear creative's Duration and its skipoffset.
#include <string>

#include "decision/catalog/model.h"

namespace decision::video {

// "HH:MM:SS.mmm", rounded to the millisecond: an xs:time, as VAST 4.2's Duration is typed.
// The catalog keeps durations below a day (catalog/limits.h).
void append_vast_duration(std::string& out, double seconds);

// skipoffset: "HH:MM:SS" for an offset in seconds, "<n>%" for a share of the duration.
// Only for a skippable video (SkipOffset::Kind other than kNone).
void append_skip_offset(std::string& out, const catalog::SkipOffset& offset);

}  // namespace decision::video
