#pragma once
// keys.json read the way decisiond reads it, for every command of decisiond-keys: the same
// mode, size and content checks (tracking::read_secret_file, parse_key_file_contents) and
// the ring rules, so that the tool never accepts, compares or rewrites a file the server
// would refuse. There is no second parser: this only wraps the server's.
#include <string>

#include "absl/status/statusor.h"
#include "tracking/tokens/key_file.h"

namespace tools::decisiond_keys {

// The contents of the keys.json at path. NotFound (naming `create`) when it is missing;
// otherwise the server's refusal, prefixed with the path. Never quotes the file.
absl::StatusOr<tracking::KeyFileContents> read_key_file(const std::string& path);

}  // namespace tools::decisiond_keys
