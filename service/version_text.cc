#include "service/build_info.h"

#include <gcrypt.h>
#include <jemalloc/jemalloc.h>
#include <llhttp.h>
#include <maxminddb.h>
#include <openssl/crypto.h>
#include <xxhash.h>

#include <cstddef>

#include "absl/base/config.h"
#include "absl/strings/str_cat.h"
#include "simdjson.h"

#if __has_include(<liburing/io_uring_version.h>)
#include <liburing.h>
#define DECISIOND_URING_RUNTIME_VERSION 1
#endif

// The preprocessor's two-step stringification, for version numbers given as bare tokens.
#define DECISIOND_VERSION_STRING_(x) #x
#define DECISIOND_VERSION_STRING(x) DECISIOND_VERSION_STRING_(x)

namespace service {

namespace {

void add(std::string& text, absl::string_view name, absl::string_view version, absl::string_view source) {
  absl::StrAppend(&text, "  ", name, " ", version, " (", source, ")\n");
}

std::string jemalloc_version() {
  const char* version = nullptr;
  size_t size = sizeof(version);
  if (mallctl("version", &version, &size, nullptr, 0) != 0 || version == nullptr) return "unknown";
  return version;
}

std::string xxhash_version() {
  // XXH_versionNumber() is major*10000 + minor*100 + release.
  const unsigned n = XXH_versionNumber();
  return absl::StrCat(n / 10000, ".", n / 100 % 100, ".", n % 100);
}

}  // namespace

// Runtime versions where a library reports the one actually loaded (a shared library may
// have been upgraded under the binary); compile-time ones otherwise, said as such.
std::string version_text() {
  std::string text = absl::StrCat("decisiond ", kBuildVersion, " (commit ", kBuildCommit, ", built ", kBuildDate, ")\n");
  absl::StrAppend(&text, "libraries:\n");
#ifdef DECISIOND_URING_RUNTIME_VERSION
  add(text, "liburing", absl::StrCat(io_uring_major_version(), ".", io_uring_minor_version()), "runtime");
#else
  add(text, "liburing", DECISIOND_LIBURING_VERSION, "compile time: this liburing has no version call");
#endif
  add(text, "llhttp",
      absl::StrCat(LLHTTP_VERSION_MAJOR, ".", LLHTTP_VERSION_MINOR, ".", LLHTTP_VERSION_PATCH),
      "built into the binary");
  add(text, "simdjson", DECISIOND_VERSION_STRING(SIMDJSON_VERSION),
      absl::StrCat("compile time; runtime kernel ", simdjson::get_active_implementation()->name()));
  add(text, "OpenSSL", OpenSSL_version(OPENSSL_VERSION_STRING), "runtime");
  add(text, "abseil", absl::StrCat("LTS ", ABSL_LTS_RELEASE_VERSION, ".", ABSL_LTS_RELEASE_PATCH_LEVEL), "compile time");
  add(text, "jemalloc", jemalloc_version(), "runtime");
  add(text, "libmaxminddb", MMDB_lib_version(), "runtime");
  add(text, "re2", DECISIOND_RE2_VERSION, "compile time: Debian package libre2-dev; re2 has no version call");
  add(text, "libgcrypt", gcry_check_version(nullptr), "runtime");
  add(text, "xxhash", xxhash_version(), "runtime");
  return text;
}

}  // namespace service
