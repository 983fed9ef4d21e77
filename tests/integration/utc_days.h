#pragma once
// Dates relative to the real current UTC day, so that a file naming "past" and "future"
// dates for the server stays true on whatever day the tests run.
#include <string>

namespace integration {

// "2026-11-21"
std::string utc_date(int days_from_today);
// "2026-11-21T00:00:00Z" (RFC 3339, the catalog's flight dates)
std::string utc_midnight(int days_from_today);
// "Sat, 21 Nov 2026 00:00:00 GMT" (IMF-fixdate, the Sunset header)
std::string http_date_at_midnight(int days_from_today);

}  // namespace integration
