#pragma once
// The counters of one-way posts to and from one core (one_way_post.h), exported by
// one_way_post_metrics.h. Each has one writer: `kept` the core itself, `waited` the main
// thread; scrapes read both.
#include "runtime/core_counter.h"

namespace runtime {

struct OneWayCounters {
  CoreCounter kept;    // this core's one-way messages that found no room and waited in its outbox
  CoreCounter waited;  // the main thread's messages to this core that waited for room in its queue
};

}  // namespace runtime
