#pragma once
// A file of the MaxMind test databases the fixtures hold (GEOIP_FIXTURE_DIR, set by CMake).
#include <string>

namespace decision::geo::testing {

inline std::string fixture(const char* file) { return std::string(GEOIP_FIXTURE_DIR) + "/" + file; }

}  // namespace decision::geo::testing
