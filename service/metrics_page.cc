#include "service/metrics_page.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "http/json_writer.h"
#include "service/core_services.h"

namespace service {

namespace {
using http::ServerMetrics;

struct Listener {
  const char* name;
  const ServerMetrics& (CoreServices::*metrics)() const;
};
constexpr Listener kListeners[] = {
    {"public", &CoreServices::public_metrics},
    {"admin", &CoreServices::admin_metrics},
};

void header(std::string& out, absl::string_view name, absl::string_view type, absl::string_view help) {
  absl::StrAppend(&out, "# HELP ", name, " ", help, "\n# TYPE ", name, " ", type, "\n");
}

void requests(const ProcessView& view, std::string& out) {
  header(out, "decisiond_http_requests_total", "counter", "Requests answered, by listener, route, status and core.");
  for (const Listener& l : kListeners) {
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      const ServerMetrics& m = (view.cores[core]->*l.metrics)();
      for (uint32_t route = 0; route < m.route_names().size(); ++route) {
        for (size_t s = 0; s < http::kTrackedStatuses.size(); ++s) {
          const uint64_t n = m.requests(route, s).get();
          if (n == 0) continue;
          const int status = http::kTrackedStatuses[s];
          absl::StrAppend(&out, "decisiond_http_requests_total{listener=\"", l.name, "\",route=\"",
                          m.route_names()[route], "\",status=\"",
                          status == 0 ? std::string("other") : absl::StrCat(status), "\",core=\"", core,
                          "\"} ", n, "\n");
        }
      }
    }
  }
}

void latency(const ProcessView& view, std::string& out) {
  header(out, "decisiond_http_request_duration_seconds", "histogram",
         "Time from a request's last byte to its reply being queued, by listener and route (all cores).");
  for (const Listener& l : kListeners) {
    const ServerMetrics& first = (view.cores[0]->*l.metrics)();
    for (uint32_t route = 0; route < first.route_names().size(); ++route) {
      uint64_t cumulative = 0;
      uint64_t sum_ns = 0;
      const std::string labels = absl::StrCat("listener=\"", l.name, "\",route=\"", first.route_names()[route], "\"");
      std::string lines;
      for (size_t b = 0; b <= http::kLatencyBucketsUs.size(); ++b) {
        for (CoreServices* core : view.cores) cumulative += ((core->*l.metrics)()).latency_bucket(route, b).get();
        const std::string le = b < http::kLatencyBucketsUs.size()
                                   ? absl::StrFormat("%g", http::kLatencyBucketsUs[b] / 1e6)
                                   : std::string("+Inf");
        absl::StrAppend(&lines, "decisiond_http_request_duration_seconds_bucket{", labels, ",le=\"", le, "\"} ",
                        cumulative, "\n");
      }
      if (cumulative == 0) continue;
      for (CoreServices* core : view.cores) sum_ns += ((core->*l.metrics)()).latency_sum_ns(route).get();
      absl::StrAppend(&out, lines, "decisiond_http_request_duration_seconds_sum{", labels, "} ",
                      absl::StrFormat("%.9f", sum_ns / 1e9), "\n",
                      "decisiond_http_request_duration_seconds_count{", labels, "} ", cumulative, "\n");
    }
  }
}

void per_core(const ProcessView& view, std::string& out, absl::string_view name, absl::string_view type,
              absl::string_view help, const runtime::CoreCounter ServerMetrics::*counter) {
  header(out, name, type, help);
  for (const Listener& l : kListeners) {
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      absl::StrAppend(&out, name, "{listener=\"", l.name, "\",core=\"", core, "\"} ",
                      ((view.cores[core]->*l.metrics)().*counter).get(), "\n");
    }
  }
}

void limit_hits(const ProcessView& view, std::string& out) {
  struct Limit {
    const char* name;
    const runtime::CoreCounter ServerMetrics::*counter;
  };
  static constexpr Limit kLimits[] = {
      {"connections", &ServerMetrics::connections_refused},
      {"header_bytes", &ServerMetrics::headers_too_large},
      {"body_bytes", &ServerMetrics::bodies_too_large},
      {"malformed", &ServerMetrics::malformed_requests},
      {"request_timeout", &ServerMetrics::request_timeouts},
      {"idle_timeout", &ServerMetrics::idle_timeouts},
      {"pipeline_backlog", &ServerMetrics::backlog_overflows},
  };
  header(out, "decisiond_http_limit_hits_total", "counter",
         "Times a bound of the HTTP layer was hit, by listener, limit and core.");
  for (const Listener& l : kListeners) {
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      const ServerMetrics& m = (view.cores[core]->*l.metrics)();
      for (const Limit& limit : kLimits) {
        absl::StrAppend(&out, "decisiond_http_limit_hits_total{listener=\"", l.name, "\",limit=\"", limit.name,
                        "\",core=\"", core, "\"} ", (m.*limit.counter).get(), "\n");
      }
    }
  }
}
void catalog(const ProcessView& view, int64_t now_wall_s, std::string& out) {
  const decision::catalog::CatalogSnapshot& snapshot = *view.catalog->snapshot;
  header(out, "decisiond_catalog_info", "gauge", "Constant 1, labelled with the catalog revision in force.");
  std::string revision;
  http::JsonWriter::append_escaped(revision, snapshot.revision());  // quotes and backslashes escaped
  absl::StrAppend(&out, "decisiond_catalog_info{revision=\"", revision, "\"} 1\n");
  header(out, "decisiond_catalog_age_seconds", "gauge", "Seconds since the catalog in force was loaded.");
  absl::StrAppend(&out, "decisiond_catalog_age_seconds ", now_wall_s - view.catalog_loaded_wall_s, "\n");
  header(out, "decisiond_catalog_ads", "gauge", "Ads in the catalog in force.");
  absl::StrAppend(&out, "decisiond_catalog_ads ", snapshot.ads().size(), "\n");
}

// DecisionHandler's counters, one family each, by core.
void decisions(const ProcessView& view, std::string& out) {
  using decision::endpoint::DecisionCounters;
  struct Family {
    const char* name;
    const char* help;
    const runtime::CoreCounter DecisionCounters::*counter;
  };
  constexpr Family kFamilies[] = {
      {"decisiond_decisions_total", "Decisions served (200), by core.", &DecisionCounters::decisions},
      {"decisiond_decision_creatives_total", "Creatives in served decisions, by core.",
       &DecisionCounters::creatives},
      {"decisiond_decision_empty_placements_total",
       "Known placements answered with no creative, by core.", &DecisionCounters::empty_placements},
      {"decisiond_decision_unknown_placements_total", "Unknown placement keys (warning 20003), by core.",
       &DecisionCounters::unknown_placements},
      {"decisiond_decision_language_fallbacks_total",
       "Placements served in the default language for want of a requested one (warning 20004), by core.",
       &DecisionCounters::language_fallbacks},
      {"decisiond_decision_language_missing_total", "Decisions without Accept-Language (warning 20001), by core.",
       &DecisionCounters::language_missing},
      {"decisiond_decision_rejected_versions_total", "Decision requests refused for their version header "
       "(400 10042, 410 10043), by core.", &DecisionCounters::rejected_versions},
      {"decisiond_decision_wrong_media_type_total", "Decision requests refused with 415, by core.",
       &DecisionCounters::wrong_media_type},
      {"decisiond_decision_invalid_bodies_total", "Decision bodies refused (400 10001, 422), by core.",
       &DecisionCounters::invalid_bodies},
      {"decisiond_decision_token_failures_total", "Decisions answered 500 because a tracking token could "
       "not be sealed, by core.", &DecisionCounters::token_failures},
      {"decisiond_decision_custom_rule_evaluations_total", "CEL targeting rules evaluated (once per "
       "program and placement, however many ads share it), by core.", &DecisionCounters::custom_evaluations},
      {"decisiond_decision_custom_rule_errors_total", "CEL targeting rule evaluations that ended in an "
       "error, leaving their ads ineligible (a missing key, an overflow, a limit), by core.",
       &DecisionCounters::custom_errors},
  };
  for (const Family& family : kFamilies) {
    header(out, family.name, "counter", family.help);
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      const DecisionCounters& counters = view.cores[core]->decisions().counters();
      absl::StrAppend(&out, family.name, "{core=\"", core, "\"} ", (counters.*family.counter).get(), "\n");
    }
  }
}
}  // namespace

void render_metrics(const ProcessView& view, int64_t now_wall_s, std::string& out) {
  out.clear();
  header(out, "decisiond_info", "gauge", "Constant 1, labelled with how the process runs.");
  absl::StrAppend(&out, "decisiond_info{io_uring_setup=\"", view.io_uring_mode, "\",cores=\"", view.cores.size(),
                  "\"} 1\n");
  header(out, "decisiond_uptime_seconds", "gauge", "Seconds since start-up.");
  absl::StrAppend(&out, "decisiond_uptime_seconds ", now_wall_s - view.started_wall_s, "\n");
  catalog(view, now_wall_s, out);
  requests(view, out);
  latency(view, out);
  per_core(view, out, "decisiond_http_connections_open", "gauge", "Connections held now, by listener and core.",
           &ServerMetrics::connections_open);
  per_core(view, out, "decisiond_http_connections_accepted_total", "counter",
           "Connections accepted, by listener and core.", &ServerMetrics::connections_accepted);
  per_core(view, out, "decisiond_http_deferred_replies_total", "counter",
           "Replies given after another core answered (a decision for a user another core owns), by "
           "listener and core.", &ServerMetrics::deferred_replies);
  limit_hits(view, out);
  decisions(view, out);
}

}  // namespace service
