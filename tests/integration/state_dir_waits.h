#pragma once
// Waiting for what the server keeps in its --state-dir (docs/events.md), told by its own
// /metrics rather than guessed from a clock: every event it acknowledged handed to the
// kernel, and a snapshot of every core written.
#include <chrono>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/server_process.h"

namespace integration {

// Waits until every line of every call the server answered before this call is in its
// event log files: readable there, and kept through kill -9 (a process crash loses only
// lines still in memory). Two things tell it, in two scrapes:
// - every impression call accepted (decisiond_tracking_calls_total{kind="impression"}) is
//   counted by the core that owns it (decisiond_impressions_counted_total plus
//   _duplicate_total): the receiving core answers 204 before the owner logs the line;
// - then, in a later scrape, no core holds a byte it has not written
//   (decisiond_events_pending_bytes 0 on every core). (Later: one page reads the cores'
//   counters one after another, so a line appended while it is rendered could be counted
//   and not yet seen pending.)
// Not its fdatasync, which only a crash of the machine needs and the metrics cannot tell
// apart from an idle log (no bytes synced are counted); no test crashes the machine.
::testing::AssertionResult wait_until_logged(const ServerProcess& server,
                                             std::chrono::milliseconds timeout = kStateTimeout);

// decisiond_snapshots_written_total of each core, by core index; empty when the scrape failed.
std::vector<double> snapshots_written(const ServerProcess& server);

// Waits until every core has written a snapshot since `before` (snapshots_written) was read.
// Written is renamed into place: one already being written when `before` was read counts,
// so the snapshot holds the state of some moment at or before it was renamed (the restart
// replays the log after the snapshot's point either way). Snapshots every
// --snapshot-interval: the timeout must allow one.
::testing::AssertionResult wait_for_snapshots_since(const ServerProcess& server, const std::vector<double>& before,
                                                    std::chrono::milliseconds timeout = kStateTimeout);

}  // namespace integration
