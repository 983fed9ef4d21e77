#!/usr/bin/env bash
# What a decision costs when its user belongs to another core (issue 9): decisiond with two
# reactors, one kept-alive connection (it lands on one core), one request at a time (a light
# load on an otherwise idle machine), in two runs: users owned by core 0, then users owned by
# core 1. One run is decided where it lands, the other is handed to the other core and back;
# decisiond's counters say which. Reports client-side p50/p90/p99 of both and the
# difference. Numbers only, no thresholds. Run from the repository root.
#
# Environment: DECISIOND (build/decisiond), FIXTURES (build/perf/decisiond_perf_fixtures),
# DURATION (10s), ROUNDS (3: each round runs both sets, the order alternating), FLAGS (more
# decisiond flags, e.g. --idle-poll=0 to see the hop without polling).
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
FIXTURES=${FIXTURES:-build/perf/decisiond_perf_fixtures}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "cross_core_latency.sh: $*" >&2; exit 1; }
[[ -x "$DECISIOND" && -x "$FIXTURES" ]] || die "build decisiond and decisiond_perf_fixtures first (make bench)"
command -v wrk >/dev/null || die "no wrk: run tools/install-deps"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-xcore.XXXXXX")
pid=""
cleanup() {
  [[ -z "$pid" ]] || { kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; }
  rm -rf "$tmp"
}
trap cleanup EXIT

port=$((20000 + RANDOM % 10000))
admin=$((port + 1))
mkdir "$tmp/state"
env -i PATH="$PATH" "$DECISIOND" --cores=2 --seed=1 --listen="127.0.0.1:$port" --admin-listen="127.0.0.1:$admin" \
  --state-dir="$tmp/state" ${FLAGS:-} >"$tmp/decisiond.log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$admin/healthz" && break; sleep 0.1; done

echo "cpu:    $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//'), $(nproc) CPUs"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) before the run"
echo "server: $(grep -m1 serving "$tmp/decisiond.log")"

for core in 0 1; do
  "$FIXTURES" users --cores 2 --core "$core" --count 100 |
    awk '{ printf "{\"placements\":[{\"key\":\"home_top\",\"count\":2}],\"user\":{\"id\":\"%s\"}}\n", $1 }' >"$tmp/bodies-$core.txt"
done

forwarded() {
  curl -s "http://127.0.0.1:$admin/metrics" | awk '/^decisiond_decision_forwarded_total\{/ { n += $NF } END { print n + 0 }'
}
to_us() {
  awk -v v="$1" 'BEGIN { n = v + 0; u = v; sub(/^[0-9.]+/, "", u); f = (u == "us") ? 1 : (u == "ms") ? 1e3 : (u == "s") ? 1e6 : 0; printf "%.0f", n * f }'
}

declare -A p50 p90 p99
echo
printf '%5s  %-14s  %10s  %8s  %8s  %8s  %s\n' round users requests/s p50_us p90_us p99_us handed_over
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2 == 1)); then order=(0 1); else order=(1 0); fi
  for core in "${order[@]}"; do
    before=$(forwarded)
    wrk -t1 -c1 -d"$DURATION" --latency -s "$SCRIPT_DIR/decision.lua" "http://127.0.0.1:$port/v1/decision" \
      -- "$tmp/bodies-$core.txt" 2025-11-01 en >"$tmp/wrk-$core-$round.txt"
    after=$(forwarded)
    requests=$(awk '/requests in/ {print $1}' "$tmp/wrk-$core-$round.txt")
    # Which set was handed over: the one whose run moved the counter by (nearly) every request.
    kind=local
    ((after - before > requests / 2)) && kind=forwarded
    p50[$kind,$round]=$(to_us "$(awk '$1 == "50%" {print $2}' "$tmp/wrk-$core-$round.txt")")
    p90[$kind,$round]=$(to_us "$(awk '$1 == "90%" {print $2}' "$tmp/wrk-$core-$round.txt")")
    p99[$kind,$round]=$(to_us "$(awk '$1 == "99%" {print $2}' "$tmp/wrk-$core-$round.txt")")
    printf '%5s  %-14s  %10s  %8s  %8s  %8s  %s\n' "$round" "core $core's" \
      "$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk-$core-$round.txt")" \
      "${p50[$kind,$round]}" "${p90[$kind,$round]}" "${p99[$kind,$round]}" "$kind ($((after - before)))"
  done
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column() {  # table kind
  local -n t=$1
  local r out=()
  for ((r = 1; r <= ROUNDS; r++)); do [[ -n "${t[$2,$r]:-}" ]] && out+=("${t[$2,$r]}"); done
  med "${out[@]}"
}
echo
for stat in p50 p90 p99; do
  l=$(column "$stat" local)
  f=$(column "$stat" forwarded)
  echo "$stat: local $l us, handed to the other core $f us, difference $(awk -v a="$f" -v b="$l" 'BEGIN { print a - b }') us" \
    "(medians of the rounds of each kind)"
done
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
