#include "service/metrics_page.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/absl_view.h"
#include "service/core_services.h"
#include "service/metrics_text.h"

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
      {"overload_shed", &ServerMetrics::shed_requests},  // 503 10098 at once: the core ran behind (--shed-lag)
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
struct Format {
  const char* name;
  size_t index;  // into decision::endpoint::FormatCounts
};
constexpr Format kFormats[] = {
    {"native", static_cast<size_t>(decision::catalog::Format::kNative)},
    {"video", static_cast<size_t>(decision::catalog::Format::kVideo)},
};

// The catalog the answering core serves (every core serves the same one once an update
// has been published), and the update loop's stats.
void catalog(const decision::endpoint::ServedCatalog& served, const UpdateStats& updates, int64_t now_wall_s,
             std::string& out) {
  const decision::catalog::CatalogSnapshot& snapshot = *served.snapshot;
  header(out, "decisiond_catalog_info", "gauge", "Constant 1, labelled with the catalog revision in force.");
  out += "decisiond_catalog_info{revision=\"";
  append_label_value(out, snapshot.revision());
  out += "\"} 1\n";
  header(out, "decisiond_catalog_age_seconds", "gauge", "Seconds since the catalog in force was published.");
  absl::StrAppend(&out, "decisiond_catalog_age_seconds ", now_wall_s - updates.catalog_loaded_wall_s.load(), "\n");
  header(out, "decisiond_catalog_load_seconds", "gauge", "How long the catalog in force took to read, validate, index and compile.");
  absl::StrAppend(&out, "decisiond_catalog_load_seconds ", updates.catalog_load_ms.load() / 1000.0, "\n");
  header(out, "decisiond_catalog_ads", "gauge", "Ads in the catalog in force, by format.");
  for (const Format& f : kFormats) {
    absl::StrAppend(&out, "decisiond_catalog_ads{format=\"", f.name, "\"} ", served.ads_by_format[f.index], "\n");
  }
  header(out, "decisiond_catalog_placements", "gauge", "Placements in the catalog in force.");
  absl::StrAppend(&out, "decisiond_catalog_placements ", snapshot.placements().size(), "\n");
  header(out, "decisiond_catalog_placements_with_ads", "gauge",
         "Placements of the catalog in force with at least one ad of the format (a placement may count in both).");
  for (const Format& f : kFormats) {
    absl::StrAppend(&out, "decisiond_catalog_placements_with_ads{format=\"", f.name, "\"} ",
                    served.placements_by_format[f.index], "\n");
  }
  header(out, "decisiond_catalog_updates_total", "counter", "Catalogs published, the one started with included.");
  absl::StrAppend(&out, "decisiond_catalog_updates_total ", updates.catalogs_published.load(), "\n");
  header(out, "decisiond_catalog_refusals_total", "counter", "Catalogs refused (SIGHUP or POST /admin/catalog); the one in force stayed.");
  absl::StrAppend(&out, "decisiond_catalog_refusals_total ", updates.catalogs_refused.load(), "\n");
  header(out, "decisiond_catalog_last_refusal_timestamp_seconds", "gauge", "When a catalog was last refused, Unix seconds; 0: none since start.");
  absl::StrAppend(&out, "decisiond_catalog_last_refusal_timestamp_seconds ", updates.last_refusal_wall_s.load(), "\n");
  header(out, "decisiond_catalog_last_refusal_errors", "gauge", "Errors found in the last refused catalog.");
  absl::StrAppend(&out, "decisiond_catalog_last_refusal_errors ", updates.last_refusal_errors.load(), "\n");
  header(out, "decisiond_geoip_reloads_total", "counter", "GeoIP databases re-opened on SIGHUP and published.");
  absl::StrAppend(&out, "decisiond_geoip_reloads_total ", updates.geoip_reloads.load(), "\n");
  header(out, "decisiond_geoip_refusals_total", "counter", "GeoIP databases that did not open on SIGHUP; the one in force stayed.");
  absl::StrAppend(&out, "decisiond_geoip_refusals_total ", updates.geoip_refusals.load(), "\n");
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
      {"decisiond_decision_capped_ads_total", "Candidate ads refused by a frequency cap, by core.",
       &DecisionCounters::capped_ads},
  };
  for (const Family& family : kFamilies) {
    header(out, family.name, "counter", family.help);
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      const DecisionCounters& counters = view.cores[core]->decisions().counters();
      absl::StrAppend(&out, family.name, "{core=\"", core, "\"} ", (counters.*family.counter).get(), "\n");
    }
  }
  struct AskFamily {
    const char* name;
    const char* type;
    const char* help;
    const runtime::CoreCounter runtime::AskCounters::*counter;
  };
  using runtime::AskCounters;
  static constexpr AskFamily kAsks[] = {
      {"decisiond_decision_forwarded_total", "counter", "Decisions handed to the core owning their user, by the core "
       "that received them.", &AskCounters::sent},
      {"decisiond_decision_served_for_peers_total", "counter", "Decisions decided for another core's connection, by the "
       "owner core.", &AskCounters::served},
      {"decisiond_decision_cross_core_asks_refused_total", "counter", "Decisions answered 503 10098 because the bound of "
       "decisions handed to other cores was reached, by core.", &AskCounters::refused},
      {"decisiond_decision_cross_core_asks_abandoned_total", "counter", "Forwarded decisions whose client had gone when "
       "the owner answered, by core.", &AskCounters::abandoned},
  };
  for (const AskFamily& family : kAsks) {
    header(out, family.name, family.type, family.help);
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      const AskCounters& counters = view.cores[core]->decisions().ask_counters();
      absl::StrAppend(&out, family.name, "{core=\"", core, "\"} ", (counters.*family.counter).get(), "\n");
    }
  }
}

// Decisions by placement label (decision/endpoint/placement_labels.h), all cores summed:
// the first PlacementLabels::kMaxLabelled keys by name, the rest as "_other". The labels
// are read first: a slot a core counts in after that is left for the next scrape.
void placements(const ProcessView& view, std::string& out) {
  using decision::endpoint::PlacementCounters;
  using decision::endpoint::PlacementLabels;
  struct Family {
    const char* name;
    const char* help;
    const runtime::CoreCounter PlacementCounters::*counter;
  };
  constexpr Family kFamilies[] = {
      {"decisiond_decision_placements_total", "Placements asked for in decisions served (200), by placement "
       "(known keys; unknown ones are decisiond_decision_unknown_placements_total).", &PlacementCounters::requested},
      {"decisiond_decision_placements_filled_total", "Placements of decisions served (200) answered with at least "
       "one creative, by placement: the fill rate is this over decisiond_decision_placements_total.",
       &PlacementCounters::filled},
      {"decisiond_decision_placement_creatives_total", "Creatives served, by placement.", &PlacementCounters::creatives},
  };
  const uint32_t labelled = view.placement_labels != nullptr ? view.placement_labels->labelled() : 0;
  auto sum = [&view](uint32_t slot, const runtime::CoreCounter PlacementCounters::*counter) {
    uint64_t total = 0;
    for (CoreServices* core : view.cores) total += (core->decisions().counters().by_placement[slot].*counter).get();
    return total;
  };
  for (const Family& family : kFamilies) {
    header(out, family.name, "counter", family.help);
    for (uint32_t slot = 0; slot < labelled; ++slot) {
      absl::StrAppend(&out, family.name, "{placement=\"");
      append_label_value(out, view.placement_labels->key(slot));
      absl::StrAppend(&out, "\"} ", sum(slot, family.counter), "\n");
    }
    absl::StrAppend(&out, family.name, "{placement=\"", runtime::av(PlacementLabels::kOtherLabel), "\"} ",
                    sum(PlacementLabels::kOtherSlot, family.counter), "\n");
  }
}

template <typename Counters>
struct CounterFamily {
  const char* name;
  const char* type;
  const char* help;
  const runtime::CoreCounter Counters::*counter;
  double unit = 0;  // 0: the counter's value as it is; else a scale to the family's base unit
};

void append_value(std::string& out, uint64_t value, double unit) {
  if (unit == 0) {
    absl::StrAppend(&out, value);
  } else {
    absl::StrAppend(&out, absl::StrFormat("%.9g", static_cast<double>(value) * unit));
  }
}

// One family per counter, by core, from each core's object of that kind.
template <typename Counters, size_t N, typename Get>
void families(const ProcessView& view, std::string& out, const CounterFamily<Counters> (&list)[N], Get get) {
  for (const CounterFamily<Counters>& family : list) {
    header(out, family.name, family.type, family.help);
    for (uint32_t core = 0; core < view.cores.size(); ++core) {
      const Counters& counters = get(*view.cores[core]);
      absl::StrAppend(&out, family.name, "{core=\"", core, "\"} ");
      append_value(out, (counters.*family.counter).get(), family.unit);
      out += '\n';
    }
  }
}

// Where each reactor's time goes (runtime::ReactorLoad): utilisation is
// rate(busy) / (rate(busy) + rate(wait)).
void reactor_load(const ProcessView& view, std::string& out) {
  static constexpr CounterFamily<runtime::ReactorLoad> kLoad[] = {
      {"decisiond_reactor_busy_seconds_total", "counter",
       "Time the core's reactor spent working (not waiting for completions or messages), by core.",
       &runtime::ReactorLoad::busy_ns, 1e-9},
      {"decisiond_reactor_wait_seconds_total", "counter",
       "Time the core's reactor spent waiting for work: polling its mailbox and asleep in io_uring_enter, by core.",
       &runtime::ReactorLoad::wait_ns, 1e-9},
  };
  families(view, out, kLoad, [](const CoreServices& c) -> const runtime::ReactorLoad& { return c.reactor_load(); });
}

// Tracking calls accepted, by kind, on the receiving core.
void tracking_calls(const ProcessView& view, std::string& out) {
  using tracking::endpoint::TrackingCounters;
  struct Kind {
    const char* name;
    const runtime::CoreCounter TrackingCounters::*counter;
  };
  static constexpr Kind kKinds[] = {
      {"impression", &TrackingCounters::impressions}, {"click", &TrackingCounters::clicks},
      {"custom", &TrackingCounters::custom_events},   {"video", &TrackingCounters::video_events},
      {"error", &TrackingCounters::errors},           {"other", &TrackingCounters::other_kinds},
  };
  header(out, "decisiond_tracking_calls_total", "counter",
         "Tracking calls accepted (repeats included), by kind and receiving core; other: verification_not_executed "
         "and kinds unknown to this build.");
  for (uint32_t core = 0; core < view.cores.size(); ++core) {
    const TrackingCounters& counters = view.cores[core]->tracking().counters();
    for (const Kind& kind : kKinds) {
      absl::StrAppend(&out, "decisiond_tracking_calls_total{kind=\"", kind.name, "\",core=\"", core, "\"} ",
                      (counters.*kind.counter).get(), "\n");
    }
  }
}

// fdatasync durations of every core's event log, summed.
void event_log_syncs(const ProcessView& view, std::string& out) {
  using tracking::events::kSyncBucketsUs;
  header(out, "decisiond_events_sync_duration_seconds", "histogram", "Event log fdatasync durations (all cores).");
  uint64_t cumulative = 0;
  uint64_t sum_ns = 0;
  for (size_t b = 0; b <= kSyncBucketsUs.size(); ++b) {
    for (CoreServices* core : view.cores) cumulative += core->event_log().counters().sync_buckets[b].get();
    const std::string le = b < kSyncBucketsUs.size() ? absl::StrFormat("%g", kSyncBucketsUs[b] / 1e6) : "+Inf";
    absl::StrAppend(&out, "decisiond_events_sync_duration_seconds_bucket{le=\"", le, "\"} ", cumulative, "\n");
  }
  for (CoreServices* core : view.cores) sum_ns += core->event_log().counters().sync_ns_sum.get();
  absl::StrAppend(&out, "decisiond_events_sync_duration_seconds_sum ", absl::StrFormat("%.9f", sum_ns / 1e9), "\n",
                  "decisiond_events_sync_duration_seconds_count ", cumulative, "\n");
}

// The access log (docs/access-log.md); zero while --access-log-sample is 0.
void access_log_metrics(const ProcessView& view, std::string& out) {
  using runtime::LineLogCounters;
  static constexpr CounterFamily<LineLogCounters> kAccess[] = {
      {"decisiond_access_log_written_total", "counter", "Access log lines written, by core.", &LineLogCounters::lines_written},
      {"decisiond_access_log_written_bytes_total", "counter", "Access log bytes written, by core.",
       &LineLogCounters::bytes_written},
      {"decisiond_access_log_dropped_total", "counter",
       "Access log lines lost (past the pending bound while the disk refused, or at shutdown), by core.",
       &LineLogCounters::lines_dropped},
      {"decisiond_access_log_write_errors_total", "counter", "Access log writes, syncs or opens the kernel refused, by core.",
       &LineLogCounters::write_errors},
  };
  families(view, out, kAccess, [](const CoreServices& c) -> const LineLogCounters& { return c.access_log().counters(); });
}

void tracking_metrics(const ProcessView& view, std::string& out) {
  using tracking::endpoint::TrackingCounters;
  static constexpr CounterFamily<TrackingCounters> kTracking[] = {
      {"decisiond_tracking_rejected_versions_total", "counter", "Tracking calls refused for their version header, by core.",
       &TrackingCounters::rejected_versions},
      {"decisiond_tracking_invalid_tokens_total", "counter", "Tracking calls answered 400 10050, by core.",
       &TrackingCounters::invalid_tokens},
      {"decisiond_tracking_expired_tokens_total", "counter", "Tracking calls answered 410 10051, by core.",
       &TrackingCounters::expired_tokens},
  };
  families(view, out, kTracking, [](const CoreServices& c) -> const TrackingCounters& { return c.tracking().counters(); });
  using runtime::AskCounters;
  static constexpr CounterFamily<AskCounters> kAsks[] = {
      {"decisiond_tracking_forwarded_total", "counter", "Impressions handed to the core that counts them, by receiving core.",
       &AskCounters::sent},
      {"decisiond_tracking_cross_core_asks_refused_total", "counter",
       "Impression calls answered 503 10098 because the bound of impressions handed to other cores was reached, by core.",
       &AskCounters::refused},
  };
  families(view, out, kAsks, [](const CoreServices& c) -> const AskCounters& { return c.tracking().ask_counters(); });
  tracking_calls(view, out);

  using decision::video::VastTagCounters;
  static constexpr CounterFamily<VastTagCounters> kVastTags[] = {
      {"decisiond_vast_documents_total", "counter", "VAST tag fetches answered with the ad's document, by core.",
       &VastTagCounters::documents},
      {"decisiond_vast_no_fills_total", "counter",
       "VAST tag fetches answered with the no-fill document (the ad has left), by core.", &VastTagCounters::no_fills},
      {"decisiond_vast_bad_signatures_total", "counter", "VAST tag fetches answered 403 10052, by core.",
       &VastTagCounters::bad_signatures},
      {"decisiond_vast_expired_total", "counter", "VAST tag fetches answered 410 10053, by core.",
       &VastTagCounters::expired},
      {"decisiond_vast_token_failures_total", "counter",
       "VAST tag fetches answered 500 because a tracking token could not be sealed, by core.",
       &VastTagCounters::token_failures},
  };
  families(view, out, kVastTags, [](const CoreServices& c) -> const VastTagCounters& { return c.vast_tags().counters(); });

  using tracking::impressions::ImpressionCounters;
  static constexpr CounterFamily<ImpressionCounters> kImpressions[] = {
      {"decisiond_impressions_counted_total", "counter", "Impressions counted (first call of their token), by owner core.",
       &ImpressionCounters::counted},
      {"decisiond_impressions_duplicate_total", "counter",
       "Impression calls of a token already counted (answered 204, not counted), by owner core.",
       &ImpressionCounters::duplicates},
  };
  families(view, out, kImpressions, [](const CoreServices& c) -> const ImpressionCounters& { return c.impressions().counters(); });

  using Gauges = CoreServices::StateGauges;
  static constexpr CounterFamily<Gauges> kState[] = {
      {"decisiond_cap_entries", "gauge", "Frequency-cap entries held, by core.", &Gauges::cap_entries},
      {"decisiond_cap_bytes", "gauge", "Bytes held by the frequency-cap partition, by core.", &Gauges::cap_bytes},
      {"decisiond_cap_entries_reclaimed_total", "counter", "Expired frequency-cap entries reclaimed, by core.",
       &Gauges::cap_reclaimed},
      {"decisiond_dedup_entries", "gauge", "Impression tokens remembered as counted, by core.", &Gauges::dedup_entries},
      {"decisiond_dedup_bytes", "gauge", "Bytes held by the impression dedup set, by core.", &Gauges::dedup_bytes},
      {"decisiond_dedup_entries_reclaimed_total", "counter", "Expired dedup entries reclaimed, by core.",
       &Gauges::dedup_reclaimed},
  };
  families(view, out, kState, [](const CoreServices& c) -> const Gauges& { return c.state_gauges(); });

  using tracking::events::EventLogCounters;
  static constexpr CounterFamily<EventLogCounters> kLog[] = {
      {"decisiond_events_written_total", "counter", "Event log lines written, by core.", &EventLogCounters::events_written},
      {"decisiond_events_written_bytes_total", "counter", "Event log bytes written, by core.", &EventLogCounters::bytes_written},
      {"decisiond_events_dropped_total", "counter",
       "Event log lines lost (past the pending bound while the disk refused, or at shutdown), by core.",
       &EventLogCounters::events_dropped},
      {"decisiond_events_write_errors_total", "counter", "Event log writes, syncs or opens the kernel refused, by core.",
       &EventLogCounters::write_errors},
      {"decisiond_events_syncs_total", "counter", "Event log fdatasyncs, by core.", &EventLogCounters::syncs},
      {"decisiond_events_sync_last_seconds", "gauge", "Duration of the last event log fdatasync, by core.",
       &EventLogCounters::sync_latency_us, 1e-6},
      {"decisiond_events_sync_max_seconds", "gauge", "Longest event log fdatasync since start, by core.",
       &EventLogCounters::sync_latency_us_max, 1e-6},
      {"decisiond_events_pending_bytes", "gauge", "Event log bytes appended and not yet written, by core.",
       &EventLogCounters::pending_bytes},
  };
  families(view, out, kLog, [](const CoreServices& c) -> const EventLogCounters& { return c.event_log().counters(); });
  event_log_syncs(view, out);

  header(out, "decisiond_events_log_healthy", "gauge", "1 while the core's event log writes succeed, 0 while the disk refuses.");
  for (uint32_t core = 0; core < view.cores.size(); ++core) {
    absl::StrAppend(&out, "decisiond_events_log_healthy{core=\"", core, "\"} ",
                    view.cores[core]->event_log().healthy() ? 1 : 0, "\n");
  }

  using tracking::state::SnapshotCounters;
  static constexpr CounterFamily<SnapshotCounters> kSnapshots[] = {
      {"decisiond_snapshots_written_total", "counter", "Cap and dedup snapshots written, by core.", &SnapshotCounters::written},
      {"decisiond_snapshots_failed_total", "counter", "Snapshots abandoned because the disk refused, by core.",
       &SnapshotCounters::failed},
      {"decisiond_snapshot_last_bytes", "gauge", "Size of the last snapshot, by core.", &SnapshotCounters::last_bytes},
      {"decisiond_snapshot_last_duration_seconds", "gauge", "Time the last snapshot took to write, by core.",
       &SnapshotCounters::last_duration_ms, 1e-3},
  };
  families(view, out, kSnapshots, [](const CoreServices& c) -> const SnapshotCounters& { return c.snapshots().counters(); });
  access_log_metrics(view, out);
}

}  // namespace

void render_metrics(const ProcessView& view, const CoreServices& answering, int64_t now_wall_s, std::string& out) {
  out.clear();
  header(out, "decisiond_info", "gauge", "Constant 1, labelled with how the process runs.");
  absl::StrAppend(&out, "decisiond_info{io_uring_setup=\"", view.io_uring_mode, "\",cores=\"", view.cores.size(),
                  "\"} 1\n");
  header(out, "decisiond_uptime_seconds", "gauge", "Seconds since start-up.");
  absl::StrAppend(&out, "decisiond_uptime_seconds ", now_wall_s - view.started_wall_s, "\n");
  catalog(answering.catalog(), view.updates, now_wall_s, out);
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
  placements(view, out);
  tracking_metrics(view, out);
  reactor_load(view, out);
}

}  // namespace service
