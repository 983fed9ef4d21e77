#pragma once
// Files that hold secrets (keys.json): only their owner may read or write them, and they
// appear whole or not at all.
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tracking {

// The whole file, at most max_bytes. NotFound when it does not exist; FailedPrecondition
// when it is not a regular file or group or others have any access to it (any of the bits
// 077: a group-writable key file lets others plant keys and forge tokens).
absl::StatusOr<std::string> read_secret_file(const std::string& path, size_t max_bytes);

// Creates path holding contents with mode 0600, never replacing an existing file: the
// contents go to a fresh temporary file beside it (O_CREAT|O_EXCL, 0600), are fsync'd, and
// the file is renamed into place with RENAME_NOREPLACE, then the directory is fsync'd. A
// crash leaves either no file or the whole file. AlreadyExists when path appeared first
// (another process won the race), in which case nothing was changed.
absl::Status create_secret_file(const std::string& path, std::string_view contents);

// Replaces path (or creates it) with contents, whole or not at all: the contents go to a
// fresh temporary file beside it, created with mode 0600 (O_CREAT|O_EXCL, so the secrets are
// never readable by others, not even between a create and a chmod), are fsync'd, the file is
// renamed over path, then the directory is fsync'd. A crash leaves the old file or the new
// one, never a mix. When the caller is root and path exists with another owner, the new
// file keeps that owner and group, so a server running as that user can still read it.
absl::Status replace_secret_file(const std::string& path, std::string_view contents);

// Creates path and its missing parents with mode (like mkdir -p); existing ones are kept.
absl::Status make_directories(const std::string& path, mode_t mode);

}  // namespace tracking
