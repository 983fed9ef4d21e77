#pragma once
// The pacing rounds' view of the delivery goals: the catalog this core serves.
#include <memory>

#include "decision/endpoint/served_catalog.h"
#include "decision/pacing/pacing_rounds.h"

namespace service {

class CatalogGoals final : public decision::pacing::GoalSource {
 public:
  explicit CatalogGoals(std::shared_ptr<const decision::endpoint::ServedCatalog> catalog)
      : catalog_(std::move(catalog)) {}
  void set_catalog(std::shared_ptr<const decision::endpoint::ServedCatalog> catalog) { catalog_ = std::move(catalog); }

  std::span<const decision::pacing::PacedGoal> paced_goals() const override { return catalog_->paced_goals; }

 private:
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog_;
};

}  // namespace service
