#include "decision/catalog/loader.h"

#include <simdjson.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "decision/catalog/json_syntax.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/load_context.h"
#include "decision/catalog/text_formats.h"

namespace decision::catalog {
namespace {

CatalogError document_error(std::string message) { return {"", std::move(message), std::nullopt}; }

CatalogError syntax_error(std::string_view text, simdjson::error_code code) {
  const std::optional<SyntaxError> found = find_syntax_error(text);
  if (!found)
    return document_error(absl::StrCat("not valid JSON: ", simdjson::error_message(code)));
  const TextPosition& at = found->position;
  return {"",
          absl::StrCat("not valid JSON: ", found->what, " at line ", at.line, ", column ",
                       at.column, " (byte ", at.offset, ")"),
          at};
}

LoadResult refused(std::vector<CatalogError> errors) {
  LoadResult result;
  result.errors = std::move(errors);
  return result;
}

}  // namespace

namespace detail {

// Order matters: ads resolve against the tables read before them.
void read_catalog(const ObjectReader& root, LoadContext& context) {
  context.data.revision = std::string(root.text("revision", Presence::kRequired).value_or(""));
  if (const std::optional<std::string_view> language =
          root.text("defaultLanguage", Presence::kRequired)) {
    if (std::optional<std::string> tag = normalize_language_tag(*language)) {
      context.data.default_language = std::move(*tag);
    } else {
      root.error("defaultLanguage", "is not a language tag (such as en or pt-BR)");
    }
  }
  read_priorities(root, context);
  read_advertisers(root, context);
  read_templates(root, context);
  read_placements(root, context);
  read_ads(root, context);
}

}  // namespace detail

absl::Status LoadResult::status() const {
  if (ok()) return absl::OkStatus();
  std::vector<std::string> lines;
  lines.reserve(errors.size());
  for (const CatalogError& error : errors) lines.push_back(error.to_string());
  return absl::InvalidArgumentError(absl::StrJoin(lines, "\n"));
}

namespace {

// simdjson reads up to SIMDJSON_PADDING bytes past the text's end: the text comes padded.
LoadResult load_padded(const simdjson::padded_string& padded, const LoadOptions& options) {
  const std::string_view json_text(padded.data(), padded.size());
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (const simdjson::error_code code = parser.parse(padded).get(root); code != simdjson::SUCCESS) {
    return refused({syntax_error(json_text, code)});
  }
  simdjson::dom::object members;
  if (root.get_object().get(members) != simdjson::SUCCESS) {
    return refused({document_error("the catalog must be a JSON object")});
  }
  detail::LoadContext context(options);
  detail::read_catalog(detail::ObjectReader(members, "", context.errors), context);
  if (!context.errors.empty()) return refused(context.errors.take());
  LoadResult result;
  result.snapshot = std::make_shared<const CatalogSnapshot>(std::move(context.data));
  return result;
}

struct OpenedFile {
  explicit OpenedFile(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~OpenedFile() {
    if (fd >= 0) ::close(fd);
  }
  OpenedFile(const OpenedFile&) = delete;
  OpenedFile& operator=(const OpenedFile&) = delete;
  const int fd;
};

CatalogError read_error(const std::string& path, int error) {
  return document_error(absl::StrCat("cannot read ", path, ": ", std::strerror(error)));
}

LoadResult load_unsized(int fd, const std::string& path, const LoadOptions& options) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return refused({read_error(path, errno)});
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > kMaxCatalogBytes) {
      return refused({document_error(absl::StrCat(path, ": catalog larger than ", kMaxCatalogBytes, " bytes"))});
    }
  }
  return load_catalog(text, options);
}

}  // namespace

LoadResult load_catalog(std::string_view json_text, const LoadOptions& options) {
  if (json_text.size() > kMaxCatalogBytes) {
    return refused(
        {document_error(absl::StrCat("catalog larger than ", kMaxCatalogBytes, " bytes"))});
  }
  return load_padded(simdjson::padded_string(json_text.data(), json_text.size()), options);
}

LoadResult load_catalog_file(const std::string& path, const LoadOptions& options) {
  // Read once, straight into padded memory: a 100,000-ad catalog is 115 MB, and growing a
  // string by chunks and then copying it padded cost two more passes over it.
  const OpenedFile file(path);
  if (file.fd < 0) return refused({read_error(path, errno)});
  struct stat st;
  if (::fstat(file.fd, &st) != 0) return refused({read_error(path, errno)});
  if (S_ISDIR(st.st_mode)) return refused({read_error(path, EISDIR)});
  // A pipe (--catalog=<(...)): its size is not known before it ends.
  if (!S_ISREG(st.st_mode)) return load_unsized(file.fd, path, options);
  if (static_cast<uint64_t>(st.st_size) > kMaxCatalogBytes) {
    return refused({document_error(absl::StrCat(path, ": catalog larger than ", kMaxCatalogBytes, " bytes"))});
  }
  simdjson::padded_string text(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(file.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return refused({read_error(path, errno)});
    if (n == 0) break;  // the file shrank since fstat: what is there is parsed
    got += static_cast<size_t>(n);
  }
  if (got < text.size()) return load_catalog(std::string_view(text.data(), got), options);
  return load_padded(text, options);
}

}  // namespace decision::catalog
