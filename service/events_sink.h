#pragma once
// The event shipper of --events-sink (docs/events.md "Shipping to NATS JetStream"): one
// thread per node, made before the cores (each core registers the shipper's metrics at its
// set-up), started once they serve, stopped after they have drained and closed their logs.
#include <memory>

#include "service/flags.h"
#include "tracking/event_shipping/event_shipper.h"

namespace service {

// Null without --events-sink.
std::unique_ptr<tracking::event_shipping::EventShipper> make_event_shipper(const ServiceConfig& config);

}  // namespace service
