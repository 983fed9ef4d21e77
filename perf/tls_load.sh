#!/usr/bin/env bash
# perf/load.sh TARGET=tls: HTTPS decisions (docs/tls.md) against nginx terminating TLS and
# serving one of decisiond's decision replies from a file, both on the same CPU with the same
# self-signed ECDSA P-256 certificate, protocols, suites and groups, session tickets on; and
# decisiond's plain HTTP in the same run, for the CPU an HTTPS decision costs over a plain
# one; and the proxied path operators run today, nginx terminating TLS in front of
# decisiond's plain listener (upstream keep-alive), both processes on the same CPU, its CPU
# per request theirs together. wrk (perf/decision.lua, keep-alive) on the other CPU, the
# four kinds of round in rotating order. Then handshakes: `openssl s_time` full (-new) and
# resumed (-reuse), one connection at a time, against each server. Then memory: IDLE
# kept-alive HTTPS connections (build/perf/decisiond_overload_client --idle: a handshake
# and one decision each, then silence) held against each server in turn, its RSS growth
# divided by them. It reports numbers, no thresholds; it fails (exit 1, after printing
# them) when wrk saw errors. load.sh hands TARGET=tls here; run from the repository's root.
#
# Environment (as load.sh): DECISIOND (build/decisiond), ROUNDS (3), DURATION (10s),
# CONNECTIONS (64), SEED (1), USERS (1000), DECISION_BODY, DECISION_VERSION (2025-11-01),
# ACCEPT_LANGUAGE (fr-CH, fr;q=0.9, en;q=0.8); HANDSHAKE_SECONDS, s_time -time of each
# handshake run (5); IDLE, the idle connections (10000; 0 skips it); CLIENT
# (build/perf/decisiond_overload_client).
set -euo pipefail

LOAD_SCRIPT=tls_load.sh
die() {
  echo "$LOAD_SCRIPT: $*" >&2
  exit 1
}
# shellcheck source=perf/load_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/load_common.sh"

DECISIOND=${DECISIOND:-build/decisiond}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
SEED=${SEED:-1}
USERS=${USERS:-1000}
DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}}'}
DECISION_VERSION=${DECISION_VERSION-2025-11-01}
ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
HANDSHAKE_SECONDS=${HANDSHAKE_SECONDS:-5}
IDLE=${IDLE:-10000}
CLIENT=${CLIENT:-build/perf/decisiond_overload_client}
NGINX=/usr/sbin/nginx
# The suites of docs/tls.md, for nginx too.
SUITES="ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

check_decision_settings tls wrk openssl curl
[[ -x "$NGINX" ]] || die "no $NGINX: run tools/install-deps (package nginx-light)"

tmp=$(mktemp -d)
declare -A decisiond_pid public_url admin_url
nginx_pid=""
wrk_pid=""
cleanup() {
  [[ -z "$wrk_pid" ]] || kill "$wrk_pid" 2>/dev/null || true
  stop_process "$nginx_pid" nginx
  stop_process "${decisiond_pid[main]:-}" decisiond
  rm -rf "$tmp"
}
trap cleanup EXIT

assign_cpus "nothing else"
print_machine "$(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}'), $("$NGINX" -v 2>&1 | sed 's/^nginx version: //'), $(openssl version)"
echo "cpus:   decisiond and nginx each on CPU $server_cpu in turn, wrk and s_time on CPU $wrk_cpu"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 -nodes \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1 || die "openssl req failed"
chmod 600 "$tmp/key.pem"
write_bodies "$tmp/bodies.txt"

next_free_port
tls_port=$port
# No overload shedding (TARGET=overload measures it): wrk opens its 64 connections at once,
# about 20 ms of handshakes on one core, and the first requests queued behind them would
# otherwise be answered 503 now and then, which fails a round.
start_decisiond main "$tmp/state" --shed-lag=0 --max-connections-per-core=$((IDLE + CONNECTIONS + 1000)) \
  --tls-listen="127.0.0.1:$tls_port" --tls-cert="$tmp/cert.pem" \
  --tls-key="$tmp/key.pem"
https_url="https://127.0.0.1:$tls_port/v1/decision"

# nginx serves the reply of the middle user, as load.sh's decision target does.
median_user=$(((USERS + 1) / 2))
body=$(sed -n "${median_user}p" "$tmp/bodies.txt")
mkdir "$tmp/www" "$tmp/nginx-temp"
curl --noproxy '*' -s --cacert "$tmp/cert.pem" -X POST -H 'Content-Type: application/json' \
  ${DECISION_VERSION:+-H "X-Decision-Version: $DECISION_VERSION"} \
  ${ACCEPT_LANGUAGE:+-H "Accept-Language: $ACCEPT_LANGUAGE"} -d "$body" -o "$tmp/www/reply.body" "$https_url" \
  || die "the sample HTTPS decision failed"
next_free_port
nginx_port=$port
next_free_port
proxy_port=$port
decisiond_port=$(sed -E 's|.*:([0-9]+)/.*|\1|' <<<"${public_url[main]}")
cat >"$tmp/nginx.conf" <<CONF
master_process off;
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log warn;
# Twice IDLE: at IDLE plus a few hundred nginx warned "worker_connections are not enough,
# reusing connections" and closed idle ones while the memory phase was opening its own.
events { worker_connections $((2 * IDLE + 4 * CONNECTIONS + 256)); }
http {
$(nginx_http_basics)
  # Both servers: the same certificate, protocols, suites, groups and tickets as decisiond.
  ssl_certificate $tmp/cert.pem;
  ssl_certificate_key $tmp/key.pem;
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_ciphers $SUITES;
  ssl_ecdh_curve X25519:prime256v1;
  ssl_session_tickets on;
  server {
    listen 127.0.0.1:$nginx_port ssl;
    location = /v1/decision {
      types { }
      default_type application/json;
      etag off;
      max_ranges 0;
      error_page 405 =200 \$uri;
      alias $tmp/www/reply.body;
    }
  }
  # The proxied path: TLS here, the decision by decisiond's plain listener behind.
  upstream decisiond {
    server 127.0.0.1:$decisiond_port;
    keepalive $CONNECTIONS;
  }
  server {
    listen 127.0.0.1:$proxy_port ssl;
    location = /v1/decision {
      proxy_pass http://decisiond;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
CONF
taskset -c "$server_cpu" "$NGINX" -p "$tmp/" -e "$tmp/nginx-error.log" -c "$tmp/nginx.conf" -g 'daemon off;' \
  >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
nginx_url="https://127.0.0.1:$nginx_port/v1/decision"
for _ in $(seq 50); do
  curl --noproxy '*' -s -o /dev/null --cacert "$tmp/cert.pem" -X POST -d x "$nginx_url" && break
  sleep 0.1
done
echo "reply: $(wc -c <"$tmp/www/reply.body") bytes of body (user u$median_user's decision; nginx serves it from a file)"

declare -A rate p50 p99 cpu_us url pid
url[https]=$https_url
url[nginx]=$nginx_url
url[plain]=${public_url[main]}
url[proxied]="https://127.0.0.1:$proxy_port/v1/decision"
pid[https]=${decisiond_pid[main]}
pid[nginx]=$nginx_pid
pid[plain]=${decisiond_pid[main]}
pid[proxied]="$nginx_pid ${decisiond_pid[main]}"
kinds=(https nginx plain proxied)
clk=$(getconf CLK_TCK)
ticks_of() {  # pids...
  local total=0 p
  for p in "$@"; do total=$((total + $(process_ticks "$p"))); done
  echo "$total"
}
for ((r = 1; r <= ROUNDS; r++)); do
  for ((k = 0; k < ${#kinds[@]}; k++)); do
    kind=${kinds[$(((k + r - 1) % ${#kinds[@]}))]}
    # shellcheck disable=SC2086 # the proxied path's two pids
    before=$(ticks_of ${pid[$kind]})
    run_wrk_lua "$tmp/wrk-$kind-$r.txt" "$DURATION" perf/decision.lua "${url[$kind]}" -- "$tmp/bodies.txt" \
      "$DECISION_VERSION" "$ACCEPT_LANGUAGE"
    # shellcheck disable=SC2086
    after=$(ticks_of ${pid[$kind]})
    errors=$(wrk_errors "$tmp/wrk-$kind-$r.txt")
    [[ -z "$errors" ]] || { cat "$tmp/wrk-$kind-$r.txt" >&2; die "$kind round $r: $errors"; }
    requests=$(awk '/requests in/ {print $1}' "$tmp/wrk-$kind-$r.txt")
    rate[$kind,$r]=$(awk '/^Requests\/sec/ {print $2}' "$tmp/wrk-$kind-$r.txt")
    p50[$kind,$r]=$(to_us "$(awk '$1 == "50%" {print $2}' "$tmp/wrk-$kind-$r.txt")")
    p99[$kind,$r]=$(to_us "$(awk '$1 == "99%" {print $2}' "$tmp/wrk-$kind-$r.txt")")
    cpu_us[$kind,$r]=$(awk -v t=$((after - before)) -v n="$requests" -v c="$clk" 'BEGIN { printf "%.2f", t * 1e6 / c / n }')
    printf 'round %d %-7s %10.0f/s  p50 %6d us  p99 %6d us  cpu %s us/request\n' "$r" "$kind" "${rate[$kind,$r]}" \
      "${p50[$kind,$r]}" "${p99[$kind,$r]}" "${cpu_us[$kind,$r]}"
  done
done

echo
echo "medians over $ROUNDS rounds of $DURATION, $CONNECTIONS connections (keep-alive):"
for kind in "${kinds[@]}"; do
  printf '  %-7s %10.0f/s  p50 %6.0f us  p99 %6.0f us  cpu %6.2f us/request\n' "$kind" "$(med_of rate "$kind")" \
    "$(med_of p50 "$kind")" "$(med_of p99 "$kind")" "$(med_of cpu_us "$kind")"
done
awk -v a="$(med_of rate https)" -v b="$(med_of rate nginx)" -v c="$(med_of cpu_us https)" -v d="$(med_of cpu_us plain)" \
  'BEGIN { printf "decisiond HTTPS / nginx HTTPS: %.2fx the rate; HTTPS / plain CPU per decision: %.2fx\n", a / b, c / d }'
awk -v a="$(med_of rate https)" -v b="$(med_of rate proxied)" -v c="$(med_of cpu_us https)" -v d="$(med_of cpu_us proxied)" \
  'BEGIN { printf "decisiond HTTPS / nginx in front of decisiond: %.2fx the rate, %.2fx the CPU per decision\n", a / b, c / d }'

# Handshakes one at a time: what a client sees (connections in the same wall time; each
# waits for the server's flights) and what each costs the server (its CPU over the run
# divided by the connections: the comparison that moves least with the VM's latency). Each
# server runs twice per mode in the order decisiond, nginx, nginx, decisiond, and the two
# runs are summed: whichever ran first after the decision rounds was the slower by up to 20%.
echo
echo "handshakes, one connection at a time (openssl s_time -time $HANDSHAKE_SECONDS twice each on CPU $wrk_cpu):"
declare -A handshakes handshake_ticks handshake_seconds
for mode in new reuse; do
  for target in "decisiond $tls_port ${decisiond_pid[main]}" "nginx $nginx_port $nginx_pid" \
    "nginx $nginx_port $nginx_pid" "decisiond $tls_port ${decisiond_pid[main]}"; do
    read -r name target_port target_pid <<<"$target"
    ticks_before=$(process_ticks "$target_pid")
    out=$(taskset -c "$wrk_cpu" openssl s_time -connect "127.0.0.1:$target_port" "-$mode" -time "$HANDSHAKE_SECONDS" 2>&1 \
      | grep -E 'connections in [0-9.]+ real seconds' | tail -n1)
    handshake_ticks[$name,$mode]=$((${handshake_ticks[$name,$mode]:-0} + $(process_ticks "$target_pid") - ticks_before))
    # "N connections in T real seconds"
    handshakes[$name,$mode]=$((${handshakes[$name,$mode]:-0} + $(awk '{print $1 + 0}' <<<"$out")))
    handshake_seconds[$name,$mode]=$((${handshake_seconds[$name,$mode]:-0} + $(awk '{print $4 + 0}' <<<"$out")))
  done
  for name in decisiond nginx; do
    awk -v n="$name" -v m="$mode" -v c="${handshakes[$name,$mode]}" -v s="${handshake_seconds[$name,$mode]}" \
      -v t="${handshake_ticks[$name,$mode]}" -v hz="$clk" \
      'BEGIN { printf "  %-9s -%-5s %6d connections in %d s, server CPU %7.1f us each\n", n, m, c, s, (c > 0) ? t * 1e6 / hz / c : 0 }'
  done
  awk -v m="$mode" -v a="${handshakes[decisiond,$mode]}" -v b="${handshakes[nginx,$mode]}" \
    -v c="${handshake_ticks[decisiond,$mode]}" -v d="${handshake_ticks[nginx,$mode]}" \
    'BEGIN { printf "  decisiond / nginx, -%s: %.2fx the connections, %.2fx the server CPU per handshake\n", m, a / ((b > 0) ? b : 1), (c / ((a > 0) ? a : 1)) / ((d > 0) ? d / ((b > 0) ? b : 1) : 1) }'
done

# Memory per idle kept-alive HTTPS connection: IDLE connections, each a handshake and one
# decision, then silent, held against each server in turn; RSS growth over them, read once
# the last is held and 12 s more have passed: what the handshakes allocated and freed is
# returned by then (jemalloc's decay is 10 s), however long the client took to open them.
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
if ((IDLE > 0)); then
  [[ -x "$CLIENT" ]] || die "no client at '$CLIENT': run \`make bench\` first (or set CLIENT)"
  echo
  echo "memory, $IDLE idle kept-alive HTTPS connections (TLS 1.3):"
  for target in "decisiond $tls_port ${decisiond_pid[main]}" "nginx $nginx_port $nginx_pid"; do
    read -r name target_port target_pid <<<"$target"
    before=$(rss_kb "$target_pid")
    taskset -c "$wrk_cpu" "$CLIENT" --tls --idle --port="$target_port" --connections="$IDLE" --warmup=0 \
      --seconds=15 --body-file="$tmp/bodies.txt" --version="$DECISION_VERSION" >"$tmp/idle-$name.txt" \
      2>"$tmp/idle-$name.err" &
    client_pid=$!
    while ! grep -q 'all held' "$tmp/idle-$name.err" && kill -0 "$client_pid" 2>/dev/null; do sleep 0.5; done
    sleep 12
    during=$(rss_kb "$target_pid")
    wait "$client_pid"
    held=$(sed -E 's/.* idle=([0-9]+).*/\1/' "$tmp/idle-$name.txt")
    reconnects=$(sed -E 's/.* reconnects=([0-9]+).*/\1/' "$tmp/idle-$name.txt")
    awk -v n="$name" -v b="$before" -v d="$during" -v h="$held" -v r="$reconnects" \
      'BEGIN { printf "  %-9s RSS %d -> %d KiB with %d connections held (%d reconnected): %.1f KiB each\n", n, b, d, h, r, (d - b) / (h > 0 ? h : 1) }'
  done
fi
