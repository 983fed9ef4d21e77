#pragma once
// An ad whose only targeting is one custom expression, as the catalog loader would make it.
#include <string>
#include <utility>

#include "decision/catalog/model.h"

namespace decision::targeting::testing {

inline catalog::Ad ad_with_custom(std::string source) {
  catalog::Ad ad;
  ad.targeting.custom = catalog::CustomExpression{std::move(source), "ads[0].targeting.custom"};
  return ad;
}

}  // namespace decision::targeting::testing
