#pragma once
// The `custom` rules of one catalog, compiled once when the catalog is published (never on
// the request path): one program per distinct expression, since a catalog repeats a few
// rules across many ads, and for each ad the program it carries. Immutable once built;
// every core reads the same object.
#include <cstdint>
#include <span>
#include <vector>

#include "decision/catalog/model.h"
#include "cel/program.h"

namespace decision::targeting {

// Which request variables a program reads, one bit per slot of cel::kRequestVariables
// (custom, user, device, app): user, device and app are parsed only for rules that read
// them.
using VariableSet = uint8_t;

class CustomPrograms {
 public:
  // program_of() for an ad with no custom rule.
  static constexpr uint32_t kNone = UINT32_MAX;
  // program_of() for a rule that does not compile. The loader refuses such catalogs
  // (service/catalog_updates/catalog_build.cc), so only a catalog loaded without that check has one, and its
  // ads are never eligible: an unchecked rule must not serve everyone.
  static constexpr uint32_t kUncompiled = UINT32_MAX - 1;

  CustomPrograms() = default;
  explicit CustomPrograms(std::span<const catalog::Ad> ads);

  // ad_index into the catalog's ads().
  uint32_t program_of(uint32_t ad_index) const {
    return ad_index < program_of_ad_.size() ? program_of_ad_[ad_index] : kNone;
  }
  size_t size() const { return programs_.size(); }
  const cel::Program& program(uint32_t index) const { return programs_[index]; }
  VariableSet variables(uint32_t index) const { return variables_[index]; }

 private:
  std::vector<uint32_t> program_of_ad_;  // parallel to the catalog's ads
  std::vector<cel::Program> programs_;
  std::vector<VariableSet> variables_;   // parallel to programs_
};

}  // namespace decision::targeting
