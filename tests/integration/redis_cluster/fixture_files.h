#pragma once
// Where the test fixtures' servers live and what they wrote: a fresh directory for each
// fixture, and the end of a log for its error messages.
#include <cstddef>
#include <string>

namespace integration {

// A fresh directory under $TMPDIR (or /tmp) named prefix-XXXXXX; empty on failure.
std::string make_temp_dir(const std::string& prefix);

// The last `lines` lines of the file, each indented by four spaces; empty when it cannot
// be read.
std::string tail_of_file(const std::string& path, size_t lines);

}  // namespace integration
