#include "service/secret_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "service/flag_error.h"

namespace service {

absl::Status check_secret_file(absl::string_view flag, const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return invalid_flag(flag, absl::StrCat(path, ": ", std::strerror(errno)));
  if ((st.st_mode & 077) != 0) return invalid_flag(flag, absl::StrCat(path, " is readable by others: chmod 600 it"));
  return absl::OkStatus();
}

absl::StatusOr<std::string> read_secret_file(absl::string_view flag, const std::string& path) {
  if (absl::Status s = check_secret_file(flag, path); !s.ok()) return s;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) return invalid_flag(flag, absl::StrCat(path, ": cannot be read"));
  std::string secret(absl::StripTrailingAsciiWhitespace(text.str()));
  if (secret.empty()) return invalid_flag(flag, absl::StrCat(path, " is empty"));
  return secret;
}

}  // namespace service
