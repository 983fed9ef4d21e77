#include "decision/catalog/load_context.h"

#include "absl/strings/str_cat.h"
#include "decision/catalog/text_formats.h"
#include "runtime/absl_view.h"

namespace decision::catalog::detail {

bool claim_id(absl::flat_hash_map<Id, Claim>& claims, Id id, uint32_t index,
              const std::string& path, std::string_view kind, ErrorList& errors) {
  const auto [it, inserted] = claims.try_emplace(id, Claim{index, path});
  if (inserted) return true;
  errors.add(path, absl::StrCat("duplicate ", runtime::av(kind), " id ", id, " (also at ",
                                it->second.path, ")"));
  return false;
}

const Claim* resolve_id(const absl::flat_hash_map<Id, Claim>& claims, Id id,
                        const std::string& path, std::string_view kind, ErrorList& errors) {
  const auto it = claims.find(id);
  if (it != claims.end()) return &it->second;
  errors.add(path, absl::StrCat("unknown ", runtime::av(kind), " id ", id));
  return nullptr;
}

std::string read_url(const ObjectReader& in, std::string_view key, Presence presence) {
  const std::optional<std::string_view> url = in.string(key, presence);
  if (!url) return {};
  if (!is_http_url(*url)) in.error(key, "must be an absolute http or https URL");
  return std::string(*url);
}

}  // namespace decision::catalog::detail
