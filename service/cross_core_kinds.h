#pragma once
// Every kind of cross-core ask the server makes (runtime/cross_core_asks.h), listed once so
// that their share of the message queues is checked at compile time: each kind may fill
// 2 x kPerPeer slots of the queue between two cores (asks one way, answers the other), and
// together with the one-way messages' share they must fit it (runtime/queue_budget.h). A
// new kind of ask is one Work type and one line here.
#include "caps/kept_across_cores.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/explain/explain_ask.h"
#include "decision/pacing/pacing_ask.h"
#include "runtime/mailbox.h"
#include "runtime/queue_budget.h"
#include "tracking/impression_sink/impression_ask.h"

namespace service {

using CrossCoreAskKinds = runtime::AskKinds<decision::endpoint::DecisionAsk, tracking::impression_sink::ImpressionAsk,
                                            decision::explain::ExplainAsk, decision::pacing::PacingAsk,
                                            caps::KeptNewsAsk>;

// With the one-way messages' share (runtime/one_way_post.h);
// tests/unit/service/queue_budget_test.cc prints the figures kind by kind.
inline constexpr uint32_t kCrossCoreQueueSlots = CrossCoreAskKinds::kQueueSlots;

static_assert(kCrossCoreQueueSlots <= runtime::Mailbox::kDefaultQueueCapacity,
              "the cross-core asks' per-peer bounds overflow the message queue between two cores");

}  // namespace service
