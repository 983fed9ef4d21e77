#include "service/catalog_updates/catalog_build.h"

#include <chrono>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "decision/catalog/loader.h"
#include "cel/compile.h"
#include "service/demo_catalog.h"

namespace service {
namespace {

// A custom rule that does not compile refuses the catalog, with its position. Catalogs
// repeat a few rules over many ads, so each distinct source is compiled once here (and
// once more by the served catalog, which keeps the programs).
decision::catalog::LoadOptions compile_once(absl::flat_hash_map<std::string, absl::Status>& verdicts) {
  decision::catalog::LoadOptions options;
  options.check_custom = [&verdicts](std::string_view source) {
    auto [verdict, inserted] = verdicts.try_emplace(std::string(source));
    if (inserted) verdict->second = cel::compile(source).status();
    return verdict->second;
  };
  return options;
}

template <typename Load>
BuiltCatalog build(std::string source, decision::endpoint::PlacementLabels& labels, Load&& load) {
  const auto started = std::chrono::steady_clock::now();
  BuiltCatalog built;
  built.source = std::move(source);
  absl::flat_hash_map<std::string, absl::Status> verdicts;
  decision::catalog::LoadResult loaded = load(compile_once(verdicts));
  if (loaded.ok()) {
    built.served = decision::endpoint::make_served_catalog(std::move(loaded.snapshot), &labels);
  } else {
    built.errors = std::move(loaded.errors);
  }
  built.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
                          .count();
  return built;
}

}  // namespace

BuiltCatalog build_catalog_from_file(const std::string& path, decision::endpoint::PlacementLabels& labels) {
  if (path.empty()) {
    return build("built-in demo catalog", labels, [](const decision::catalog::LoadOptions& options) {
      return decision::catalog::load_catalog(demo_catalog_json(), options);
    });
  }
  return build(path, labels, [&path](const decision::catalog::LoadOptions& options) {
    return decision::catalog::load_catalog_file(path, options);
  });
}

BuiltCatalog build_catalog_from_text(std::string_view json_text, std::string source,
                                     decision::endpoint::PlacementLabels& labels) {
  return build(std::move(source), labels, [json_text](const decision::catalog::LoadOptions& options) {
    return decision::catalog::load_catalog(json_text, options);
  });
}

BuiltCatalog build_empty_catalog(std::string source, decision::endpoint::PlacementLabels& labels) {
  static constexpr std::string_view kEmpty =
      R"({"revision":"none","defaultLanguage":"en","priorities":[],"advertisers":[],"templates":[],)"
      R"("placements":[],"ads":[]})";
  return build_catalog_from_text(kEmpty, std::move(source), labels);
}

std::string refusal_summary(const BuiltCatalog& built) {
  if (built.errors.empty()) return "refused";
  return absl::StrCat("refused with ", built.errors.size(), " error(s), the first: ", built.errors.front().to_string());
}

std::string listed_errors(const BuiltCatalog& built) {
  std::string listed;
  for (const decision::catalog::CatalogError& error : built.errors) absl::StrAppend(&listed, "\n  ", error.to_string());
  return listed;
}

}  // namespace service
