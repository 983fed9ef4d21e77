#pragma once
// What `decisiond --version` prints: build facts written at build time
// (cmake/build_info.cmake) and the libraries the binary runs with.
#include <string>

namespace service {

extern const char kBuildVersion[];  // project(VERSION) in CMakeLists.txt
extern const char kBuildCommit[];   // short hash, "-dirty" suffix, or "unknown"
extern const char kBuildDate[];     // YYYY-MM-DD, UTC

// "decisiond <version> (commit <hash>, built <date>)" then one line per library:
// "  <name> <version> (<where the version comes from>)".
std::string version_text();

}  // namespace service
