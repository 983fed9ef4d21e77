#!/usr/bin/env bash
# perf/load.sh TARGET=event-log: what the event log's writes cost one serving core when the
# log sits on a disk, against the same build logging to tmpfs and logging to nowhere
# (docs/performance.md "The event log under sustained load").
#
# Three decisionds of the same build, --cores=1 --pin on the same CPU, the demo catalog,
# decisions only (perf/decision.lua, USERS users on home_top: each decision logs one line
# per creative served, about 300 bytes), driven one at a time by wrk on the other CPU in
# rounds of DURATION, the order rotating each round:
#   disk     its state directory (event log included) under DISK_DIR, which must not be tmpfs
#   tmpfs    its state directory under TMPFS_DIR (a tmpfs)
#   nowhere  --benchmark-events-to-nowhere: every line formatted and counted, none written,
#            so disk - nowhere is the whole price of writing and tmpfs - nowhere the part
#            that is not the disk's
# Where decisiond runs (SPLIT):
#   1  it may use both CPUs: --pin puts its reactor on the first and everything else, io_uring's
#      workers included, on the second, which wrk also uses (as an operator who reserves
#      cores for reactors runs it)
#   0  it is confined to one CPU, reactor and all, as perf/load.sh runs it
# ROUNDS rounds each, so that a disk logging at this rate passes the page cache's dirty
# thresholds, rotates files and syncs many times inside the run (by default 10 rounds of
# 6 s: a minute of log, about 1 GB at 60,000 decisions/s).
#
# Before the servers start, the machine's dirty pages are written (`sync`), so that an
# earlier run's log (its deletion included) is not written back during this one's rounds.
# Per round: decisions/s (decisiond's counter over the round's wall time), the share of the
# round the serving thread ran (near 100%: the rate is the core's, not wrk's), p50/p99 (wrk),
# decisiond's CPU per decision split into the serving thread's user and system time and
# io_uring's workers' (iou-wrk-* threads: writes the kernel could not finish inline, and
# every fdatasync), the log's size so far, and the machine's Dirty and Writeback pages at the
# round's end. Summary: per sink the median and the lowest round; disk against tmpfs (median
# round; the lowest disk round against tmpfs's median, and against the tmpfs round of its own
# rotation, which ran beside it in time), and each against nowhere.
#
# It reports numbers, no thresholds. It fails (exit 1, after printing them) when a reply was
# not 2xx (wrk's count or decisiond's) or wrk saw socket errors. load.sh hands
# TARGET=event-log here; run from the repository's root.
#
# Environment (as load.sh):
#   DECISIOND     the binary                                       (build/decisiond)
#   ROUNDS        rounds per decisiond, the order rotating         (10)
#   DURATION      wrk -d of each round                             (6s)
#   CONNECTIONS   wrk -c                                           (64)
#   SEED          decisiond --seed                                 (1)
#   USERS         distinct user ids u1..uN, one body each, in turn (64)
#   DECISION_BODY the request body, @USER@ replaced by the user id
#                 ({"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}})
#   DECISION_VERSION, ACCEPT_LANGUAGE   as load.sh        (2025-11-01; fr-CH, fr;q=0.9, en;q=0.8)
#   DISK_DIR      where the disk node's state directory goes       (TMPDIR, else /var/tmp)
#   TMPFS_DIR     where the tmpfs node's state directory goes      (/dev/shm)
#   WARMUP        wrk -d of one uncounted run per decisiond first  (2s; 0 skips it)
#   SINKS         which nodes, a subset of "disk tmpfs nowhere"    (all three)
#   SPLIT         1: decisiond's reactor alone on its CPU; 0: all of decisiond on one CPU (1)
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
ROUNDS=${ROUNDS:-10}
DURATION=${DURATION:-6s}
WARMUP=${WARMUP:-2s}
CONNECTIONS=${CONNECTIONS:-64}
SEED=${SEED:-1}
USERS=${USERS:-64}
DECISION_VERSION=${DECISION_VERSION-2025-11-01}
ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}}'}
DISK_DIR=${DISK_DIR:-${TMPDIR:-/var/tmp}}
TMPFS_DIR=${TMPFS_DIR:-/dev/shm}
read -ra SINKS <<<"${SINKS:-disk tmpfs nowhere}"
SPLIT=${SPLIT:-1}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
  echo "event_log_load.sh: $*" >&2
  exit 1
}
LOAD_SCRIPT=event_log_load.sh
source "$SCRIPT_DIR/load_common.sh"

check_decision_settings event-log wrk curl taskset
for sink in "${SINKS[@]}"; do
  [[ "$sink" =~ ^(disk|tmpfs|nowhere)$ ]] || die "SINKS holds disk, tmpfs or nowhere, not '$sink'"
done
((${#SINKS[@]} > 0)) || die "SINKS is empty"
[[ "$SPLIT" =~ ^[01]$ ]] || die "SPLIT must be 0 or 1, not '$SPLIT'"
fs_type() { stat -f -c %T "$1"; }
[[ -d "$DISK_DIR" ]] || die "DISK_DIR '$DISK_DIR' is not a directory"
[[ -d "$TMPFS_DIR" ]] || die "TMPFS_DIR '$TMPFS_DIR' is not a directory"
[[ "$(fs_type "$DISK_DIR")" != tmpfs ]] || die "DISK_DIR '$DISK_DIR' is a tmpfs: set DISK_DIR to a directory on a disk"
[[ "$(fs_type "$TMPFS_DIR")" == tmpfs ]] || die "TMPFS_DIR '$TMPFS_DIR' is $(fs_type "$TMPFS_DIR"), not a tmpfs"

# --- clean-up: every process started here, by its pid, and the temp dirs -------------

tmp=$(mktemp -d "$DISK_DIR/decisiond-event-log-load.XXXXXX")
tmpfs_state=$(mktemp -d "$TMPFS_DIR/decisiond-event-log-load.XXXXXX")
declare -A decisiond_pid=()
wrk_pid=""

cleanup() {
  trap - EXIT INT TERM
  stop_process "$wrk_pid" wrk
  local name
  for name in "${!decisiond_pid[@]}"; do stop_process "${decisiond_pid[$name]}" "decisiond ($name)"; done
  rm -rf "$tmp" "$tmpfs_state"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the machine --------------------------------------------------------------------

print_machine "$(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}')"
echo "disk:   $DISK_DIR on $(df --output=source "$DISK_DIR" | tail -n1) ($(fs_type "$DISK_DIR")); tmpfs: $TMPFS_DIR"
echo "vm:     dirty_background_ratio $(cat /proc/sys/vm/dirty_background_ratio), dirty_ratio $(cat /proc/sys/vm/dirty_ratio), dirty_expire_centisecs $(cat /proc/sys/vm/dirty_expire_centisecs), MemTotal $(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
assign_cpus unused
if ((SPLIT)); then
  split_cpus
  echo "cpus:   decisiond (one loaded at a time) on CPUs $decisiond_cpus: its reactor on CPU $server_cpu, its other threads and io_uring workers on CPU $wrk_cpu, with wrk"
else
  echo "cpus:   wrk on CPU $wrk_cpu, decisiond (one loaded at a time, every thread) on CPU $server_cpu"
fi

# --- the decisionds ---------------------------------------------------------------------

sync
declare -A public_url admin_url state_dir
state_dir[disk]="$tmp/state-disk"
state_dir[tmpfs]="$tmpfs_state/state"
state_dir[nowhere]="$tmp/state-nowhere"
for sink in "${SINKS[@]}"; do
  mkdir "${state_dir[$sink]}"
  extra=()
  [[ "$sink" != nowhere ]] || extra=(--benchmark-events-to-nowhere)
  start_decisiond "$sink" "${state_dir[$sink]}" "${extra[@]}"
done
echo "server: decisiond --cores=1 --pin --seed=$SEED, demo catalog, default --events-flush and --events-file-bytes"

# --- the requests -------------------------------------------------------------------

write_bodies "$tmp/bodies.txt"
lua_args=(-- "$tmp/bodies.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE")
if [[ "$WARMUP" != 0 ]]; then
  for sink in "${SINKS[@]}"; do
    run_wrk_lua "$tmp/warmup-$sink.txt" "$WARMUP" "$SCRIPT_DIR/decision.lua" "${public_url[$sink]}" "${lua_args[@]}"
  done
fi

# --- measuring ------------------------------------------------------------------------

# Nanoseconds the serving thread (core-0) has run, from the scheduler's own account.
core_run_ns() {
  local task
  for task in /proc/"$1"/task/*; do
    [[ "$(cat "$task/comm" 2>/dev/null)" == core-0 ]] && { cut -d' ' -f1 "$task/schedstat"; return; }
  done
  echo 0
}
# "user system" CPU ticks of the process's threads: the serving core's (named core-0), and
# io_uring's workers' (iou-wrk-*), as "core_user core_sys wrk_total".
thread_ticks() {
  local task comm core_u=0 core_s=0 wrk=0 u s
  for task in /proc/"$1"/task/*; do
    comm=$(cat "$task/comm" 2>/dev/null) || continue
    read -r u s < <(sed 's/^.*) //' "$task/stat" | awk '{print $12, $13}')
    case "$comm" in
      core-0) core_u=$((core_u + u)); core_s=$((core_s + s)) ;;
      iou-wrk-*) wrk=$((wrk + u + s)) ;;
    esac
  done
  echo "$core_u $core_s $wrk"
}
log_mib() { du -sm "${state_dir[$1]}/events" 2>/dev/null | awk '{print $1}'; }
meminfo_mib() { awk -v k="$1:" '$1 == k {printf "%.0f", $2 / 1024}' /proc/meminfo; }
hz=$(getconf CLK_TCK)

echo
echo "wrk: -t1 -c$CONNECTIONS -d$DURATION --latency, perf/decision.lua, $USERS users, $ROUNDS rounds per decisiond, order rotating"
echo "  dec/s: decisions per second (decisiond's counter over the round's wall time); core%: the share of the round"
echo "  the serving thread ran (/proc/<tid>/schedstat; near 100: the rate is the core's, not wrk's); all_us: decisiond's CPU per"
echo "  decision, every thread; usr_us, sys_us: the serving thread's user and system time per decision; iowq_us:"
echo "  io_uring's workers'; log_MiB: the log so far; dirty, wback: the machine's Dirty and Writeback MiB at the end"
echo "  (CPU counted in ticks of 1/$hz s)"
printf '%5s  %-7s  %7s  %5s  %6s  %6s  %6s  %6s  %6s  %7s  %7s  %7s  %6s  %s\n' round sink "dec/s" core% all_us usr_us \
  sys_us iowq_us lines p50_us p99_us log_MiB dirty "wback errors"
declare -A rate p50 p99
failures=()
for ((round = 1; round <= ROUNDS; round++)); do
  shift_by=$(((round - 1) % ${#SINKS[@]}))
  order=("${SINKS[@]:$shift_by}" "${SINKS[@]:0:$shift_by}")
  for sink in "${order[@]}"; do
    out="$tmp/wrk-$sink-$round.txt"
    pid=${decisiond_pid[$sink]}
    scrape "$sink" "$tmp/metrics-0.txt"
    read -r d0 l0 bad0 <<<"$(counters "$tmp/metrics-0.txt")"
    t0=$(process_ticks "$pid")
    read -r cu0 cs0 w0 <<<"$(thread_ticks "$pid")"
    run0=$(core_run_ns "$pid")
    start_ns=$(date +%s%N)
    run_wrk_lua "$out" "$DURATION" "$SCRIPT_DIR/decision.lua" "${public_url[$sink]}" "${lua_args[@]}"
    end_ns=$(date +%s%N)
    t1=$(process_ticks "$pid")
    read -r cu1 cs1 w1 <<<"$(thread_ticks "$pid")"
    run1=$(core_run_ns "$pid")
    scrape "$sink" "$tmp/metrics-1.txt"
    read -r d1 l1 bad1 <<<"$(counters "$tmp/metrics-1.txt")"
    n=$((d1 - d0))
    ((n > 0)) || { cat "$out" >&2; die "no decisions in round $round ($sink)"; }
    read -r r all usr sys iowq lp busy < <(awk -v n="$n" -v ns="$((end_ns - start_ns))" -v t="$((t1 - t0))" \
      -v cu="$((cu1 - cu0))" -v cs="$((cs1 - cs0))" -v w="$((w1 - w0))" -v l="$((l1 - l0))" -v hz="$hz" \
      -v run="$((run1 - run0))" \
      'BEGIN { f = 1e6 / hz / n
               printf "%.0f %.2f %.2f %.2f %.2f %.2f %.0f\n", n / (ns / 1e9), t * f, cu * f, cs * f, w * f, l / n, 100 * run / ns }')
    rate[$sink,$round]=$r
    p50[$sink,$round]=$(to_us "$(awk '$1 == "50%" {print $2}' "$out")")
    p99[$sink,$round]=$(to_us "$(awk '$1 == "99%" {print $2}' "$out")")
    errors=$(wrk_errors "$out")
    ((bad1 - bad0 == 0)) || errors+="${errors:+; }not 2xx (decisiond's count): $((bad1 - bad0))"
    printf '%5s  %-7s  %7s  %5s  %6s  %6s  %6s  %6s  %6s  %7s  %7s  %7s  %6s  %5s  %s\n' "$round" "$sink" "$r" "$busy" "$all" "$usr" \
      "$sys" "$iowq" "$lp" "${p50[$sink,$round]}" "${p99[$sink,$round]}" "$(log_mib "$sink")" "$(meminfo_mib Dirty)" \
      "$(meminfo_mib Writeback)" "${errors:-none}"
    [[ -z "$errors" ]] || failures+=("round $round $sink: $errors")
  done
done

min_of() {  # table key
  local -n table=$1
  local r values=()
  for ((r = 1; r <= ROUNDS; r++)); do values+=("${table[$2,$r]}"); done
  printf '%s\n' "${values[@]}" | sort -g | head -n1
}
declare -A m_rate lo_rate
echo
echo "summary ($ROUNDS rounds of $DURATION per sink)"
printf '  %-7s  %12s  %12s  %7s  %7s\n' sink "median dec/s" "lowest dec/s" p50_us p99_us
for sink in "${SINKS[@]}"; do
  m_rate[$sink]=$(med_of rate "$sink")
  lo_rate[$sink]=$(min_of rate "$sink")
  printf '  %-7s  %12.0f  %12.0f  %7.0f  %7.0f\n' "$sink" "${m_rate[$sink]}" "${lo_rate[$sink]}" "$(med_of p50 "$sink")" \
    "$(med_of p99 "$sink")"
done
if [[ -n "${m_rate[disk]:-}" && -n "${m_rate[tmpfs]:-}" ]]; then
  pairs=()
  for ((r = 1; r <= ROUNDS; r++)); do pairs+=("$(awk -v d="${rate[disk,$r]}" -v t="${rate[tmpfs,$r]}" 'BEGIN { printf "%.3f", d / t }')"); done
  lowest_pair=$(printf '%s\n' "${pairs[@]}" | sort -g | head -n1)
  awk -v md="${m_rate[disk]}" -v ld="${lo_rate[disk]}" -v mt="${m_rate[tmpfs]}" -v lp="$lowest_pair" 'BEGIN {
    printf "  disk/tmpfs: median round %.3f; lowest disk round against the tmpfs median %.3f\n", md / mt, ld / mt
    printf "  disk/tmpfs round by round (each rotation'"'"'s two rounds ran one after the other): lowest %.3f\n", lp }'
  awk -v lt="${lo_rate[tmpfs]}" -v mt="${m_rate[tmpfs]}" 'BEGIN {
    printf "  the noise: the lowest tmpfs round against the tmpfs median %.3f\n", lt / mt }'
fi
if [[ -n "${m_rate[nowhere]:-}" ]]; then
  for sink in disk tmpfs; do
    [[ -n "${m_rate[$sink]:-}" ]] || continue
    awk -v m="${m_rate[$sink]}" -v n="${m_rate[nowhere]}" -v s="$sink" 'BEGIN {
      printf "  %s/nowhere: median round %.3f (the log costs %.1f%% of the rate)\n", s, m / n, 100 * (1 - m / n) }'
  done
fi
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#failures[@]} > 0)); then
  echo >&2
  echo "event_log_load.sh: FAILED: errors during the rounds, so the figures above compare unlike work:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
