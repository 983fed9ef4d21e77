#pragma once
// The certificates the TLS listeners serve, for /metrics (each one's expiry, labelled by its
// subject: docs/operations.md says how to alert on it) and SIGHUP's reloads by result.
// Written by the main thread (start, SIGHUP), read by scrapes on any core: under a lock,
// never on a request's path.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/metric_source.h"
#include "tls/server_context.h"

namespace service {

class TlsCertificatesInForce {
 public:
  void set(std::vector<tls::CertificateFact> facts) {
    std::lock_guard lock(mutex_);
    facts_ = std::move(facts);
  }
  std::vector<tls::CertificateFact> get() const {
    std::lock_guard lock(mutex_);
    return facts_;
  }
  std::atomic<uint64_t> reloads_applied{0};
  std::atomic<uint64_t> reloads_refused{0};

 private:
  mutable std::mutex mutex_;
  std::vector<tls::CertificateFact> facts_;
};

extern const runtime::MetricTable<TlsCertificatesInForce> kTlsCertificateMetricTable;

}  // namespace service
