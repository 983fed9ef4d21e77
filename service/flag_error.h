#pragma once
// The one form of a refused flag: "invalid --<flag>: <why>", which main prints as the
// single stderr line before exit 2.
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace service {

inline absl::Status invalid_flag(absl::string_view flag, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("invalid --", flag, ": ", why));
}

}  // namespace service
