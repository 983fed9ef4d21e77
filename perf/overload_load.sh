#!/usr/bin/env bash
# perf/load.sh TARGET=overload: one core at overload (docs/performance.md "Overload").
# decisiond on one CPU, build/perf/decisiond_overload_client on the other, a closed loop of
# CONNECTIONS_LIST kept-alive connections, plain HTTP and HTTPS, each run twice: with
# --shed-lag at its default and with --shed-lag=0 (no shedding, the reference). For each:
# the served (200) decisions per second and their p50/p99/p99.9 as the client saw them, and
# the 503s shed. Clients back off as Retry-After says (RETRY=backoff) or resend at once
# (RETRY=at-once, wrk's way); both by default. Then a flood of TLS handshakes at FLOOD
# connections in the air (each sends a ClientHello and closes once answered) beside 64
# kept-alive HTTPS connections, whose served p99 is what is measured, with and without
# shedding. A kept-alive connection that fails (a shed handshake) connects again after 100 to
# 200 ms. It reports numbers, no thresholds. Run from the repository's root.
#
# Environment: DECISIOND (build/decisiond), CLIENT (build/perf/decisiond_overload_client),
# DURATION seconds counted per run after a 2 s warm-up (8), CONNECTIONS_LIST ("2000 10000"),
# RETRY ("backoff at-once"), FLOOD (512), SEED (1), USERS (1000), DECISION_BODY,
# DECISION_VERSION (2025-11-01).
set -euo pipefail

LOAD_SCRIPT=overload_load.sh
die() {
  echo "$LOAD_SCRIPT: $*" >&2
  exit 1
}
# shellcheck source=perf/load_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/load_common.sh"

DECISIOND=${DECISIOND:-build/decisiond}
CLIENT=${CLIENT:-build/perf/decisiond_overload_client}
DURATION=${DURATION:-8}
CONNECTIONS_LIST=${CONNECTIONS_LIST-2000 10000}
RETRY=${RETRY:-backoff at-once}
FLOOD=${FLOOD:-512}
SEED=${SEED:-1}
USERS=${USERS:-1000}
ROUNDS=1
CONNECTIONS=1
DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}}'}
DECISION_VERSION=${DECISION_VERSION-2025-11-01}

check_decision_settings overload openssl curl
[[ -x "$CLIENT" ]] || die "no client at '$CLIENT': run \`make bench\` first (or set CLIENT)"
# Each connection is a descriptor on both sides, and the flood churns through more.
(($(ulimit -n) >= 12000)) || ulimit -n 20000 2>/dev/null || die "needs 12,000 open files (ulimit -n)"

tmp=$(mktemp -d)
declare -A decisiond_pid public_url admin_url
cleanup() {
  stop_process "${decisiond_pid[main]:-}" decisiond
  rm -rf "$tmp"
}
trap cleanup EXIT

assign_cpus "nothing else"
print_machine "$(openssl version)"
echo "cpus:   decisiond on CPU $server_cpu, the client on CPU $wrk_cpu"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 -nodes \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1 || die "openssl req failed"
chmod 600 "$tmp/key.pem"
write_bodies "$tmp/bodies.txt"

# Starts decisiond with the given --shed-lag, both listeners; sets http_port and tls_port.
start() {  # shed_lag
  stop_process "${decisiond_pid[main]:-}" decisiond
  rm -rf "$tmp/state"
  next_free_port
  tls_port=$port
  start_decisiond main "$tmp/state" --shed-lag="$1" --max-connections-per-core=12000 \
    --tls-listen="127.0.0.1:$tls_port" --tls-cert="$tmp/cert.pem" --tls-key="$tmp/key.pem"
  http_port=$(sed -E 's|.*:([0-9]+)/.*|\1|' <<<"${public_url[main]}")
}

shed_metrics() {
  curl --noproxy '*' -s "${admin_url[main]}/metrics" \
    | awk '/^decisiond_http_limit_hits_total\{/ && /limit="overload_shed"/ { h += $2 }
           /^decisiond_tls_handshakes_total\{/ && /outcome="shed"/ { t += $2 }
           /^decisiond_tls_handshakes_total\{/ && /outcome="completed"/ { c += $2 }
           END { printf "server_shed_requests=%d server_shed_handshakes=%d server_handshakes=%d", h, t, c }'
}

run_client() {  # label flags...
  local label=$1
  shift
  printf '%-44s ' "$label"
  taskset -c "$wrk_cpu" "$CLIENT" --seconds="$DURATION" --warmup="$warmup" --body-file="$tmp/bodies.txt" \
    --version="$DECISION_VERSION" "$@" | tr -d '\n'
  echo " $(shed_metrics)"
}

for lag in 20ms 0; do
  for mode in plain tls; do
    for connections in $CONNECTIONS_LIST; do
      for retry in $RETRY; do
        start "$lag"
        # Not counted until every connection had time to connect (and shake hands).
        warmup=$((2 + connections / 2000))
        flags=(--connections="$connections")
        [[ $mode == tls ]] && flags+=(--tls --port="$tls_port") || flags+=(--port="$http_port")
        [[ $retry == at-once ]] && flags+=(--retry-at-once)
        run_client "shed-lag=$lag $mode c=$connections retry=$retry" "${flags[@]}"
      done
    done
  done
done

# The handshake flood: 64 kept-alive HTTPS connections deciding, FLOOD handshakes in the air.
warmup=2
for lag in 20ms 0; do
  start "$lag"
  run_client "shed-lag=$lag tls c=64 (no flood)" --tls --port="$tls_port" --connections=64
  start "$lag"
  run_client "shed-lag=$lag tls c=64 flood=$FLOOD" --tls --port="$tls_port" --connections=64 --flood="$FLOOD"
done
