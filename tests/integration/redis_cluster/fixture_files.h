#pragma once
// Where the test fixtures' servers live, what they are told and what they wrote: a fresh
// directory for each fixture, a quoted value for its configuration file, and the end of a
// log for its error messages.
#include <cstddef>
#include <string>

namespace integration {

// A fresh directory under $TMPDIR (or /tmp) named prefix-XXXXXX; empty on failure.
std::string make_temp_dir(const std::string& prefix);

// value in double quotes with \" and \\ escaped, so a password may hold any character:
// redis.conf (sdssplitargs) and nats-server's configuration read quoted values alike, and
// neither substitutes anything inside the quotes.
std::string double_quoted(const std::string& value);

// The last `lines` lines of the file, each indented by four spaces; empty when it cannot
// be read.
std::string tail_of_file(const std::string& path, size_t lines);

}  // namespace integration
