#pragma once
// The one thread that writes what the reactors queue (core_lines.h). It sleeps on an
// eventfd that a core writes after queueing a line (a write to an eventfd never blocks),
// and wakes on its own when a rate-limit window holding lines back ends, to write its
// summary.
namespace runtime::log {

// Starts the writer once; later calls do nothing. CoreGroup::start calls it on the thread
// that starts the reactors, so the writer shares that thread's CPUs (with --pin, off the
// reactors').
void start_writer();

// A core's nudge after it queued a line.
void wake_writer();

// At exit, once the reactors have stopped: the writer stops, what is queued is written, and
// every rate-limit window ends with its summary. Lines said afterwards are written at once.
void finish_logging();

}  // namespace runtime::log
