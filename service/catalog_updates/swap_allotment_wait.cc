#include "service/catalog_updates/swap_allotment_wait.h"

#include "runtime/check.h"

namespace service {

void SwapAllotmentWait::count_off_when_allotted(Publication& publication) {
  DECISIOND_CHECK_MSG(waiting_ == nullptr, "a catalog published while the one before is still being adopted");
  if (book_.every_goal_allotted()) {
    publication_adopted(publication);
    return;
  }
  waiting_ = &publication;
}

void SwapAllotmentWait::allotments_applied() {
  if (waiting_ == nullptr || !book_.every_goal_allotted()) return;
  Publication* adopted = waiting_;
  waiting_ = nullptr;
  publication_adopted(*adopted);
}

}  // namespace service
