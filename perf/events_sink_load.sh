#!/usr/bin/env bash
# perf/load.sh TARGET=events-sink: the price of shipping the event log to NATS JetStream
# (docs/events.md "Shipping to NATS JetStream"), and how fast the shipper ships.
#
# 1. Rounds. One decisiond without a sink ("off") and one with --events-sink to a local
#    nats-server this script starts ("on", stream created with --events-replicas=1), both
#    --cores=1 on the same CPU, driven in alternating rounds by wrk (perf/decision.lua) on
#    the other CPU with the same decisions (users from a pool on home_top: each decision
#    logs one line per creative served). Per round: decisions/s, event lines per decision,
#    decisiond's CPU per decision (utime + stime of /proc/PID/stat, every thread), the part
#    of it spent by the shipper (its thread and the NATS client's, named events-shipper:
#    /proc/PID/task/*/stat), the rest per decision (the cores and everything else), p50/p99,
#    and for "on" the shipping lag at the round's end. The shipper shares the cores' CPU
#    here: with one CPU for decisiond, every microsecond it spends is one the core loses.
# 2. Catch-up. The "off" node's log (CATCHUP_MB of it, whole files) copied into a fresh
#    state directory and shipped by a third decisiond (--cores=1, node id load-catchup) with
#    nothing else to do, on decisiond's CPU: lines shipped per second until it reports
#    nothing behind, and the shipper's CPU per line. Compared with the lines one core
#    generated per second from decisions in the "off" rounds: how many cores' worth of
#    events one shipper keeps up with here. The nats-server's CPU per line is printed too.
# 3. Floor. The same lines published by decisiond_jetstream_floor (perf/jetstream_publish_floor.cc)
#    on decisiond's CPU with nothing but the client's plain publish: no acknowledgement, no
#    window, no checkpoint; in messages of each FLOOR_RUNS lines, with a Nats-Msg-Id per
#    message (as exactly-once needs) and without. The fastest messages of that size can go
#    here, whatever the shipper does, and the least CPU the client and the server can spend
#    per line.
#
# It reports numbers, no thresholds. It fails (exit 1, after printing them) when a reply was
# not 2xx (wrk's count or decisiond's) or wrk saw socket errors. load.sh hands
# TARGET=events-sink here; run from the repository's root.
#
# Environment (as load.sh):
#   DECISIOND     the binary                                       (build/decisiond)
#   ROUNDS        rounds per decisiond, the order alternating      (3)
#   DURATION      wrk -d of each round                             (10s)
#   CONNECTIONS   wrk -c                                           (64)
#   SEED          decisiond --seed                                 (1)
#   USERS         distinct user ids u1..uN, one body each, in turn (1000)
#   DECISION_BODY the request body, @USER@ replaced by the user id
#                 ({"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}})
#   DECISION_VERSION, ACCEPT_LANGUAGE   as load.sh        (2025-11-01; fr-CH, fr;q=0.9, en;q=0.8)
#   CATCHUP_MB    MiB of log the catch-up ships, in whole 64 MiB files (256; 0 skips it
#                 and the floor)
#   FLOOR         the floor's binary  (decisiond_jetstream_floor beside DECISIOND's perf/)
#   RUN_LINES, RUN_BYTES, RUN_WAIT  --events-run-lines, --events-run-bytes and
#                 --events-run-wait of the on and catch-up nodes (empty: decisiond's defaults)
#   FLOOR_RUNS    lines per message of the floor's runs  (1 and RUN_LINES, else 1024)
#
# nats-server runs with JetStream (file storage) in a temp dir, on the CPUs left after wrk's
# and decisiond's; on a 2-CPU machine it shares wrk's CPU (printed), so its CPU is charged
# there, not to decisiond's.
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
SEED=${SEED:-1}
USERS=${USERS:-1000}
CATCHUP_MB=${CATCHUP_MB:-256}
RUN_LINES=${RUN_LINES:-}
RUN_BYTES=${RUN_BYTES:-}
RUN_WAIT=${RUN_WAIT:-}
FLOOR_RUNS=${FLOOR_RUNS:-1 ${RUN_LINES:-1024}}
DECISION_VERSION=${DECISION_VERSION-2025-11-01}
ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}}'}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SINKS=(off on)
FLOOR=${FLOOR:-$(dirname "$DECISIOND")/perf/decisiond_jetstream_floor}
FILE_MB=64  # --events-file-bytes of the rounds: the catch-up copies whole files

die() {
  echo "events_sink_load.sh: $*" >&2
  exit 1
}
LOAD_SCRIPT=events_sink_load.sh
source "$SCRIPT_DIR/load_common.sh"

check_decision_settings events-sink wrk curl taskset nats-server
[[ "$CATCHUP_MB" =~ ^[0-9]+$ ]] || die "CATCHUP_MB must be an unsigned integer, not '$CATCHUP_MB'"
((CATCHUP_MB == 0)) || [[ -x "$FLOOR" ]] || die "no $FLOOR: build the target decisiond_jetstream_floor (make bench does)"

# --- clean-up: every process started here, by its pid, and the temp dir --------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-events-sink-load.XXXXXX")
declare -A decisiond_pid=()
nats_pid=""
wrk_pid=""

cleanup() {
  trap - EXIT INT TERM
  stop_process "$wrk_pid" wrk
  local name
  # decisiond drains for up to --drain-timeout (5 s), then the shipper's last effort (5 s).
  for name in "${!decisiond_pid[@]}"; do stop_process "${decisiond_pid[$name]}" "decisiond ($name)" 130; done
  stop_process "$nats_pid" nats-server
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the machine --------------------------------------------------------------------

print_machine "$(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}'), nats-server $(nats-server --version | awk '{print $NF}')"

assign_cpus nats-server
nats_cpus=$extra_cpus
echo "cpus:   wrk on CPU $wrk_cpu, decisiond (one loaded at a time) on CPU $server_cpu, $extra_where"

# --- nats-server and the decisionds ----------------------------------------------------

next_free_port
nats_port=$port
mkdir "$tmp/nats"
taskset -c "$nats_cpus" nats-server -a 127.0.0.1 -p "$nats_port" -js -sd "$tmp/nats" >"$tmp/nats.log" 2>&1 &
nats_pid=$!
for _ in $(seq 100); do
  kill -0 "$nats_pid" 2>/dev/null || die "nats-server exited: $(tail -n 3 "$tmp/nats.log" | tr '\n' ' ')"
  grep -q 'Server is ready' "$tmp/nats.log" && break
  sleep 0.1
done
grep -q 'Server is ready' "$tmp/nats.log" || die "nats-server was not ready within 10 s"
sink_url="nats://127.0.0.1:$nats_port"

declare -A public_url admin_url
sink_flags=(--events-sink="$sink_url" --events-replicas=1)
[[ -z "$RUN_LINES" ]] || sink_flags+=(--events-run-lines="$RUN_LINES")
[[ -z "$RUN_BYTES" ]] || sink_flags+=(--events-run-bytes="$RUN_BYTES")
[[ -z "$RUN_WAIT" ]] || sink_flags+=(--events-run-wait="$RUN_WAIT")
mkdir "$tmp/state-off" "$tmp/state-on"
start_decisiond off "$tmp/state-off" --events-file-bytes="${FILE_MB}MiB" --node-id=load-off
start_decisiond on "$tmp/state-on" --events-file-bytes="${FILE_MB}MiB" --node-id=load-on "${sink_flags[@]}"
metric() {  # name family: the sum of its samples
  curl --noproxy '*' -s --max-time 5 "${admin_url[$1]}/metrics" | awk -v f="$2" '$1 == f || index($1, f "{") == 1 { s += $NF } END { print s + 0 }'
}
for _ in $(seq 100); do
  [[ "$(metric on decisiond_events_sink_stream_state)" =~ ^[12]$ ]] && break
  sleep 0.1
done
[[ "$(metric on decisiond_events_sink_stream_state)" =~ ^[12]$ ]] || die "decisiond (on) has no stream after 10 s"
echo "server: decisiond --cores=1 --pin --seed=$SEED --events-file-bytes=${FILE_MB}MiB, demo catalog; off, and on with ${sink_flags[*]}"

# --- the requests -------------------------------------------------------------------

write_bodies "$tmp/bodies.txt"
lua_args=(-- "$tmp/bodies.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE")

# --- measuring ------------------------------------------------------------------------

# CPU time in clock ticks (utime + stime) of a process's threads named events-shipper (the
# shipper and the NATS client's threads it started).
shipper_ticks() {
  local task sum=0
  for task in /proc/"$1"/task/*; do
    [[ "$(cat "$task/comm" 2>/dev/null)" == events-shipper ]] || continue
    sum=$((sum + $(sed 's/^.*) //' "$task/stat" | awk '{print $12 + $13}')))
  done
  echo "$sum"
}
hz=$(getconf CLK_TCK)

echo
echo "wrk: -t1 -c$CONNECTIONS -d$DURATION --latency, perf/decision.lua, $ROUNDS rounds per decisiond, order alternating"
echo "  dec/s: decisions per second (decisiond's counter over the round's wall time); lines/dec: event lines per decision"
echo "  srv_us/dec: decisiond's CPU per decision, every thread; ship_us/dec: its events-shipper threads' part;"
echo "  core_us/dec: the rest (srv - ship); lag_s: decisiond_events_ship_lag_seconds at the round's end (on)"
echo "  (CPU counted in ticks of 1/$hz s)"
printf '%5s  %-4s  %9s  %9s  %7s  %7s  %10s  %11s  %11s  %6s  %s\n' round sink "dec/s" lines/dec p50_us p99_us \
  srv_us/dec ship_us/dec core_us/dec lag_s errors
declare -A rate lines_per p50 p99 srv_us ship_us core_us
failures=()
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2 == 1)); then order=(off on); else order=(on off); fi
  for sink in "${order[@]}"; do
    out="$tmp/wrk-$sink-$round.txt"
    pid=${decisiond_pid[$sink]}
    scrape "$sink" "$tmp/metrics-0.txt"
    read -r d0 l0 bad0 <<<"$(counters "$tmp/metrics-0.txt")"
    t0=$(process_ticks "$pid")
    s0=$(shipper_ticks "$pid")
    start_ns=$(date +%s%N)
    run_wrk_lua "$out" "$DURATION" "$SCRIPT_DIR/decision.lua" "${public_url[$sink]}" "${lua_args[@]}"
    end_ns=$(date +%s%N)
    t1=$(process_ticks "$pid")
    s1=$(shipper_ticks "$pid")
    scrape "$sink" "$tmp/metrics-1.txt"
    read -r d1 l1 bad1 <<<"$(counters "$tmp/metrics-1.txt")"
    lag=$([[ "$sink" == on ]] && awk '/^decisiond_events_ship_lag_seconds/ { s = s > $NF ? s : $NF } END { printf "%.2f", s }' "$tmp/metrics-1.txt" || echo -)
    n=$((d1 - d0))
    ((n > 0)) || { cat "$out" >&2; die "no decisions in round $round ($sink)"; }
    read -r r lp srv ship core < <(awk -v n="$n" -v ns="$((end_ns - start_ns))" -v t="$((t1 - t0))" \
      -v s="$((s1 - s0))" -v l="$((l1 - l0))" -v hz="$hz" \
      'BEGIN { printf "%.0f %.3f %.2f %.2f %.2f\n", n / (ns / 1e9), l / n, 1e6 * t / hz / n, 1e6 * s / hz / n, 1e6 * (t - s) / hz / n }')
    rate[$sink,$round]=$r
    lines_per[$sink,$round]=$lp
    srv_us[$sink,$round]=$srv
    ship_us[$sink,$round]=$ship
    core_us[$sink,$round]=$core
    p50[$sink,$round]=$(to_us "$(awk '$1 == "50%" {print $2}' "$out")")
    p99[$sink,$round]=$(to_us "$(awk '$1 == "99%" {print $2}' "$out")")
    errors=$(wrk_errors "$out")
    ((bad1 - bad0 == 0)) || errors+="${errors:+; }not 2xx (decisiond's count): $((bad1 - bad0))"
    printf '%5s  %-4s  %9s  %9s  %7s  %7s  %10s  %11s  %11s  %6s  %s\n' "$round" "$sink" "$r" "$lp" "${p50[$sink,$round]}" \
      "${p99[$sink,$round]}" "$srv" "$ship" "$core" "$lag" "${errors:-none}"
    [[ -z "$errors" ]] || failures+=("round $round $sink: $errors")
  done
done

declare -A m_rate m_lines m_srv m_ship m_core m_p50 m_p99
echo
echo "summary (median of $ROUNDS rounds)"
printf '  %-4s  %9s  %9s  %7s  %7s  %10s  %11s  %11s\n' sink "dec/s" lines/dec p50_us p99_us srv_us/dec ship_us/dec core_us/dec
for sink in "${SINKS[@]}"; do
  m_rate[$sink]=$(med_of rate "$sink")
  m_lines[$sink]=$(med_of lines_per "$sink")
  m_srv[$sink]=$(med_of srv_us "$sink")
  m_ship[$sink]=$(med_of ship_us "$sink")
  m_core[$sink]=$(med_of core_us "$sink")
  m_p50[$sink]=$(med_of p50 "$sink")
  m_p99[$sink]=$(med_of p99 "$sink")
  printf '  %-4s  %9.0f  %9s  %7.0f  %7.0f  %10s  %11s  %11s\n' "$sink" "${m_rate[$sink]}" "${m_lines[$sink]}" \
    "${m_p50[$sink]}" "${m_p99[$sink]}" "${m_srv[$sink]}" "${m_ship[$sink]}" "${m_core[$sink]}"
done
awk -v son="${m_srv[on]}" -v soff="${m_srv[off]}" -v con="${m_core[on]}" -v coff="${m_core[off]}" \
  -v ship="${m_ship[on]}" -v lines="${m_lines[on]}" -v ron="${m_rate[on]}" -v roff="${m_rate[off]}" 'BEGIN {
    printf "  on/off: decisiond CPU per decision, every thread %.3f; without the shipper'"'"'s threads %.3f; decisions/s %.3f\n", son / soff, con / coff, ron / roff
    if (lines > 0) printf "  the shipper: %.2f us of CPU per line shipped while serving\n", ship / lines }'
generated=$(awk -v r="${m_rate[off]}" -v l="${m_lines[off]}" 'BEGIN { printf "%.0f", r * l }')
echo "  one core generated $generated event lines/s from decisions (off: dec/s x lines/dec)"
echo "  on's stream at the end: $(metric on decisiond_events_shipped_lines_total) lines shipped, $(metric on decisiond_events_ship_publish_errors_total) publish errors"

# --- catch-up ---------------------------------------------------------------------------

if ((CATCHUP_MB > 0)); then
  stop_process "${decisiond_pid[off]}" "decisiond (off)" 130
  unset 'decisiond_pid[off]'
  mkdir -p "$tmp/state-catchup/events/core-0"
  copied=0
  for file in "$tmp"/state-off/events/core-0/*.jsonl; do
    ((copied < CATCHUP_MB)) || break
    cp "$file" "$tmp/state-catchup/events/core-0/"
    copied=$((copied + $(stat -c %s "$file") / 1048576))
  done
  cp "$tmp/state-off/keys.json" "$tmp/state-catchup/"
  lines=$(cat "$tmp"/state-catchup/events/core-0/*.jsonl | wc -l)
  echo
  echo "catch-up: $lines lines ($copied MiB) of the off node's log shipped by a decisiond with nothing else to do"
  start_decisiond catchup "$tmp/state-catchup" --events-file-bytes="${FILE_MB}MiB" --node-id=load-catchup \
    "${sink_flags[@]}"
  # From serving (the start-up's replay of the copied log done): the shipper's connection,
  # stream lookup and the whole shipping.
  start_ns=$(date +%s%N)
  n0=$(process_ticks "$nats_pid")
  pid=${decisiond_pid[catchup]}
  while true; do
    shipped=$(metric catchup decisiond_events_shipped_lines_total)
    ((shipped >= lines)) && break
    kill -0 "$pid" 2>/dev/null || die "decisiond (catchup) exited: $(tail -n 3 "$tmp/decisiond-catchup.log")"
    sleep 0.05
  done
  end_ns=$(date +%s%N)
  s1=$(shipper_ticks "$pid")
  n1=$(process_ticks "$nats_pid")
  awk -v n="$lines" -v ns="$((end_ns - start_ns))" -v s="$s1" -v hz="$hz" -v g="$generated" -v ns_cpu="$((n1 - n0))" 'BEGIN {
    rate = n / (ns / 1e9)
    printf "  %.0f lines/s from serving to the last acknowledgement; shipper CPU %.2f us per line, nats-server CPU %.2f\n", rate, 1e6 * s / hz / n, 1e6 * ns_cpu / hz / n
    if (g > 0) printf "  = %.2f times the lines one core generated per second from decisions (%s)\n", rate / g, g }'
  echo "  decisiond_events_ship_publish_errors_total $(metric catchup decisiond_events_ship_publish_errors_total)"
  stop_process "${decisiond_pid[catchup]}" "decisiond (catchup)" 130
  unset 'decisiond_pid[catchup]'

  echo
  echo "floor: the same $lines lines published by $(basename "$FLOOR") on CPU $server_cpu with no acknowledgement"
  for per in $FLOOR_RUNS; do
    for way in with-ids without-ids; do
      f0=$(process_ticks "$nats_pid")
      out=$(taskset -c "$server_cpu" "$FLOOR" "$sink_url" "$tmp/state-catchup/events/core-0" "$way" "$per") \
        || die "the floor's publisher failed ($way, $per lines per message): $out"
      f1=$(process_ticks "$nats_pid")
      # out: "N lines in M messages  R lines/s  client C us/line  stored S messages"
      read -r n _ _ m _ r _ _ c _ _ stored _ <<<"$out"
      awk -v way="$way" -v per="$per" -v n="$n" -v m="$m" -v r="$r" -v c="$c" -v st="$stored" -v t="$((f1 - f0))" -v hz="$hz" -v g="$generated" 'BEGIN {
        printf "  %5d/msg %-12s %9d lines  %7.0f lines/s  client %5.2f us/line  nats-server %5.2f us/line  stored %d of %d messages", per, way, n, r, c, 1e6 * t / hz / n, st, m
        if (g > 0) printf "  (%.2f of one core'"'"'s lines/s)", r / g
        printf "\n" }'
    done
  done
fi
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#failures[@]} > 0)); then
  echo >&2
  echo "events_sink_load.sh: FAILED: errors during the rounds, so the figures above compare unlike work:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
