#!/usr/bin/env bash
# What a decision costs when its user belongs to another core (issue 9: "a decision whose
# user lives on another core adds under 20 microseconds at p99 on an idle machine").
# decisiond runs with two reactors (--cores=2, unpinned unless PIN=1); the client
# (perf/cross_core_latency.cc, target decisiond_cross_core_latency) opens ONE kept-alive
# connection, which lands on one core, and sends decisions one at a time, each after the
# previous reply (a light load), alternating a user owned by core 0 and a user owned by core 1
# (caps::owner_core): one set is decided where it lands ("local"), the other is handed to the
# other core and back ("forwarded"). Which core the connection landed on comes from
# decisiond_http_connections_open while it is open; the forwarded counter's delta confirms
# the forwarded set. A run is repeated on new connections until each core has been landed on
# RUNS_PER_CORE times. Reports client-side p50/p90/p99/p99.9 of both sets per run, their
# differences, and all runs pooled. Numbers only, no thresholds. Run from the repository root.
#
# Environment:
#   DECISIOND      the binary                                      (build/decisiond)
#   CLIENT         the client      ($(dirname DECISIOND)/perf/decisiond_cross_core_latency)
#   REQUESTS       measured decisions per connection, half each set (20000)
#   WARMUP         uncounted decisions per connection first         (2000)
#   RUNS_PER_CORE  measured connections landing on each core        (2)
#   PIN            1 pins the reactors to CPUs 0 and 1 (--pin)       (0)
#   FLAGS          more decisiond flags, e.g. --idle-poll=0 to see the hop without polling
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
CLIENT=${CLIENT:-$(dirname "$DECISIOND")/perf/decisiond_cross_core_latency}
REQUESTS=${REQUESTS:-20000}
WARMUP=${WARMUP:-2000}
RUNS_PER_CORE=${RUNS_PER_CORE:-2}
PIN=${PIN:-0}
die() { echo "cross_core_latency.sh: $*" >&2; exit 1; }
[[ -x "$DECISIOND" ]] || die "no decisiond at '$DECISIOND' (set DECISIOND)"
[[ -x "$CLIENT" ]] || die "no client at '$CLIENT': build the target decisiond_cross_core_latency (make bench does), or set CLIENT"
command -v curl >/dev/null || die "no curl: run tools/install-deps"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-xcore.XXXXXX")
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {  # a port on which nothing listens, below the ephemeral range
  local p
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 12000))
    if [[ "$p" != "${1:-}" ]] && ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  die "no free TCP port on 127.0.0.1"
}
port=$(free_port)
admin=$(free_port "$port")

pin=()
[[ "$PIN" != 1 ]] || pin=(--pin)
mkdir "$tmp/state"
# env -i: the caller's DECISIOND_<FLAG> variables would set decisiond's flags.
# shellcheck disable=SC2086  # FLAGS is a list of flags
env -i PATH="$PATH" "$DECISIOND" --cores=2 "${pin[@]}" --seed=1 --listen="127.0.0.1:$port" \
  --admin-listen="127.0.0.1:$admin" --state-dir="$tmp/state" ${FLAGS:-} >"$tmp/decisiond.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/decisiond.log" >&2; die "decisiond exited before serving"; }
  curl --noproxy '*' -s -o /dev/null --max-time 1 "http://127.0.0.1:$admin/healthz" && break
  sleep 0.1
done

echo "kernel: $(uname -srm)"
echo "cpu:    $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//'), $(nproc) CPUs"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) before the run"
echo "server: $(grep -m1 serving "$tmp/decisiond.log" || true) ${pin[*]} ${FLAGS:-}"
echo "client: one kept-alive connection per run, $WARMUP uncounted then $REQUESTS decisions one at a time," \
  "users of core 0 and core 1 alternating; until each core has been landed on $RUNS_PER_CORE times"
echo
"$CLIENT" --port "$port" --admin-port "$admin" --cores 2 --requests "$REQUESTS" --warmup "$WARMUP" \
  --runs-per-core "$RUNS_PER_CORE"
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
