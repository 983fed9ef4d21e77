// The records ads point at: priorities (tiers), advertisers, templates, placements. Each
// is claimed by id (or key) even when another of its fields is wrong, so the ads that
// reference it are not reported a second time.
#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/load_context.h"
#include "runtime/absl_view.h"

namespace decision::catalog::detail {
namespace {

// A unique string (priority or placement key): an error at path when taken.
bool claim_key(absl::flat_hash_map<std::string, Claim>& claims, std::string_view key,
               uint32_t index, const std::string& path, std::string_view kind, ErrorList& errors) {
  const auto [it, inserted] = claims.try_emplace(std::string(key), Claim{index, path});
  if (inserted) return true;
  errors.add(path, absl::StrCat("duplicate ", runtime::av(kind), " \"", runtime::av(key),
                                "\" (also at ", it->second.path, ")"));
  return false;
}

}  // namespace

// Tier weights must differ: two tiers of one weight would have no defined order.
void read_priorities(const ObjectReader& root, LoadContext& context) {
  absl::flat_hash_map<uint64_t, std::string> path_by_weight;
  for_each_object(root, "priorities", kRequired, [&](const ObjectReader& in, size_t) {
    Priority priority;
    const auto index = static_cast<uint32_t>(context.data.priorities.size());
    if (const std::optional<std::string_view> key = in.text("key", kRequired)) {
      claim_key(context.priority_by_key, *key, index, in.path_of("key"), "priority key",
                context.errors);
      priority.key = std::string(*key);
    }
    if (const std::optional<uint64_t> weight =
            in.integer("weight", kRequired, 1, kMaxPriorityWeight)) {
      const auto [it, inserted] = path_by_weight.try_emplace(*weight, in.path());
      if (!inserted)
        in.error("weight",
                 absl::StrCat("same weight as ", it->second, ": tiers need distinct weights"));
      priority.weight = static_cast<uint32_t>(*weight);
    }
    context.data.priorities.push_back(std::move(priority));
  });
}

void read_advertisers(const ObjectReader& root, LoadContext& context) {
  for_each_object(root, "advertisers", kRequired, [&](const ObjectReader& in, size_t) {
    Advertiser advertiser;
    const auto index = static_cast<uint32_t>(context.data.advertisers.size());
    if (const std::optional<Id> id = in.id("id", kRequired)) {
      claim_id(context.advertiser_by_id, *id, index, in.path_of("id"), "advertiser",
               context.errors);
      advertiser.id = *id;
    }
    advertiser.name = std::string(in.text("name", kRequired).value_or(""));
    advertiser.legal_name = std::string(in.string("legalName", kOptional).value_or(""));
    advertiser.logo_url = read_url(in, "logoUrl", kOptional);
    context.data.advertisers.push_back(std::move(advertiser));
  });
}

void read_templates(const ObjectReader& root, LoadContext& context) {
  for_each_object(root, "templates", kRequired, [&](const ObjectReader& in, size_t) {
    Template record;
    const auto index = static_cast<uint32_t>(context.data.templates.size());
    if (const std::optional<Id> id = in.id("id", kRequired)) {
      claim_id(context.template_by_id, *id, index, in.path_of("id"), "template", context.errors);
      record.id = *id;
    }
    record.key = std::string(in.text("key", kRequired).value_or(""));
    record.style = std::string(in.text("style", kOptional).value_or("default"));
    context.data.templates.push_back(std::move(record));
  });
}

// Keys are unique too: requests name placements by key.
void read_placements(const ObjectReader& root, LoadContext& context) {
  absl::flat_hash_map<std::string, Claim> by_key;
  for_each_object(root, "placements", kRequired, [&](const ObjectReader& in, size_t) {
    Placement placement;
    const auto index = static_cast<uint32_t>(context.data.placements.size());
    if (const std::optional<Id> id = in.id("id", kRequired)) {
      claim_id(context.placement_by_id, *id, index, in.path_of("id"), "placement", context.errors);
      placement.id = *id;
    }
    if (const std::optional<std::string_view> key = in.text("key", kRequired)) {
      claim_key(by_key, *key, index, in.path_of("key"), "placement key", context.errors);
      placement.key = std::string(*key);
    }
    context.data.placements.push_back(std::move(placement));
  });
}

}  // namespace decision::catalog::detail
