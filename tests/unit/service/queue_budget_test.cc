// The queue budget between two cores as the code computes it (service/cross_core_kinds.h,
// runtime/queue_budget.h): each kind of ask's kPerPeer and its 2 x kPerPeer slots, the
// one-way messages' share, and every slot of the queue accounted for. Printed, so that the
// figures docs/ give can be read off a test run (ctest -R QueueBudget -V).
#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

#include "gtest/gtest.h"
#include "runtime/mailbox.h"
#include "runtime/one_way_post.h"
#include "runtime/queue_budget.h"
#include "service/cross_core_kinds.h"

namespace service {
namespace {

template <typename T>
std::string type_name() {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> name(abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status),
                                                   &std::free);
  return status == 0 && name ? name.get() : typeid(T).name();
}

TEST(QueueBudget, TheKindsAndTheOneWayShareFillTheQueueExactly) {
  uint32_t sum = 0;
  std::printf("the queue from one core to another, per kind of ask (asks one way, answers the other):\n");
  CrossCoreAskKinds::for_each([&sum]<typename Work>() {
    const uint32_t slots = runtime::queue_slots_of<Work>();
    std::printf("  %-36s kPerPeer %4u  slots 2 x %3u = %4u\n", type_name<Work>().c_str(), Work::kPerPeer,
                Work::kPerPeer, slots);
    sum += slots;
  });
  std::printf("  %-36s %28u\n", "asks and answers", sum);
  std::printf("  %-36s %28u\n", "one-way messages' share", runtime::kQueueSlotsForOneWay);
  sum += runtime::kQueueSlotsForOneWay;
  std::printf("  %-36s %28u of %u\n", "in all", sum, runtime::Mailbox::kDefaultQueueCapacity);
  EXPECT_EQ(sum, kCrossCoreQueueSlots);
  EXPECT_EQ(sum, runtime::Mailbox::kDefaultQueueCapacity);
}

}  // namespace
}  // namespace service
