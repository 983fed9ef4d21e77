#include "decision/catalog/loader.h"

#include <simdjson.h>

#include <cerrno>
#include <cstring>
#include <fstream>

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

LoadResult load_catalog(std::string_view json_text, const LoadOptions& options) {
  if (json_text.size() > kMaxCatalogBytes) {
    return refused(
        {document_error(absl::StrCat("catalog larger than ", kMaxCatalogBytes, " bytes"))});
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::padded_string padded(json_text.data(), json_text.size());
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

LoadResult load_catalog_file(const std::string& path, const LoadOptions& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return refused(
        {document_error(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)))});
  std::string text;
  char buffer[1 << 16];
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(file.gcount()));
    if (text.size() > kMaxCatalogBytes) {
      return refused({document_error(
          absl::StrCat(path, ": catalog larger than ", kMaxCatalogBytes, " bytes"))});
    }
  }
  if (file.bad())
    return refused(
        {document_error(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)))});
  return load_catalog(text, options);
}

}  // namespace decision::catalog
