#include "service/tls/tls_certificates_in_force.h"

namespace service {

namespace {

using T = TlsCertificatesInForce;

void certificate_series(const T& in_force, runtime::MetricSeriesList& list) {
  const std::vector<tls::CertificateFact> facts = in_force.get();
  for (uint32_t i = 0; i < facts.size(); ++i) list.add(i, {{"subject", facts[i].subject}});
}

uint64_t certificate_expiry(const T& in_force, uint32_t key) {
  const std::vector<tls::CertificateFact> facts = in_force.get();
  return key < facts.size() ? static_cast<uint64_t>(facts[key].not_after_s) : 0;
}

void reload_series(const T&, runtime::MetricSeriesList& list) {
  list.add_formatted(0, R"(result="applied")");
  list.add_formatted(1, R"(result="refused")");
}

uint64_t reloads(const T& in_force, uint32_t key) {
  return key == 0 ? in_force.reloads_applied.load() : in_force.reloads_refused.load();
}

constexpr runtime::Metric<T> kMetrics[] = {
    {.name = "decisiond_tls_certificate_expiry_timestamp_seconds",
     .type = runtime::MetricType::kGauge,
     .help = "when each certificate in force expires (its notAfter), seconds since the epoch, by the leaf's subject",
     .scope = runtime::MetricScope::kAnswering,
     .series = certificate_series,
     .read = certificate_expiry},
    {.name = "decisiond_tls_certificate_reloads_total",
     .type = runtime::MetricType::kCounter,
     .help = "certificates and keys reloaded on SIGHUP: applied on every core, or refused (the set in force stayed)",
     .scope = runtime::MetricScope::kAnswering,
     .series = reload_series,
     .read = reloads},
};

}  // namespace

const runtime::MetricTable<TlsCertificatesInForce> kTlsCertificateMetricTable = kMetrics;

}  // namespace service
