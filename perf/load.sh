#!/usr/bin/env bash
# End-to-end throughput and latency of decisiond against nginx serving the same reply,
# each server pinned to one CPU and wrk pinned to another. It reports numbers: no
# thresholds, no verdicts on them. It fails (exit 1, after printing them) when a reply was
# not 2xx, by wrk's count or decisiond's, or wrk saw socket errors: the two servers then
# did unlike work. Run from the repository root (`make bench` does).
#
# Environment:
#   DECISIOND     the binary                                 (build/decisiond)
#   ROUNDS        wrk runs per server, alternating the order (3)
#   DURATION      wrk -d of each run                         (10s)
#   CONNECTIONS   wrk -c                                     (64)
#   WARMUP        wrk -d of one uncounted run per server     (1s; 0 skips it)
#   SEED          decisiond --seed                           (1)
#   TARGET        decision, video, vast, tracking, mixed, cluster, tls, overload, events-sink, event-log or healthz (decision)
# With TARGET=decision: POST /v1/decision on the public plane, through perf/decision.lua.
#   DECISION_BODY     the request body; each @USER@ in it becomes u1, u2, ... u$USERS
#                     ({"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}})
#   TARGET_BODY_FILE  a file holding that body instead of DECISION_BODY (none)
#   USERS             distinct user ids, one body each, sent in turn (1000)
#   DECISION_VERSION  X-Decision-Version, empty = none       (2025-11-01)
#   ACCEPT_LANGUAGE   Accept-Language, empty = none          (fr-CH, fr;q=0.9, en;q=0.8)
# With TARGET=video: as TARGET=decision (the same variables, perf/decision.lua), but decisiond
#   serves perf/video_catalog.json (VIDEO_CATALOG) and the default body asks video_preroll,
#   the placement with a video ad of each delivery mode, for all three:
#     {"placements":[{"key":"video_preroll","count":3}],"user":{"id":"@USER@"}}
#   so every reply mixes json, vast_xml (a whole VAST document, base64) and vast_tag (a
#   signed tag URL); the script checks a sample reply has each before the rounds.
# With TARGET=vast: GET /v1/vast, the VAST document behind a signed tag URL, against nginx
#   serving one of those documents. The tags are decisiond's own: before the rounds, one
#   vast_tag decision per user u1..u$USERS (default 200) on video_vast_tag, each tag URL's
#   path kept, sent in turn by perf/paths.lua (a fetch changes no state, so repeats cost
#   what first fetches do). Tags live --vast-tag-ttl (900 s), longer than a default run.
#   VIDEO_CATALOG     the catalog of both targets          (perf/video_catalog.json)
# With TARGET=tracking: GET /v1/tracking with distinct fresh impression tokens, against
#   nginx answering `return 204;` on the same location (with decisiond's headers).
#   TOKENS_PER_RUN    tokens minted per decisiond run (1500000): one file of request paths
#                     per run (warm-up and each round), minted after decisiond started (it
#                     creates keys.json) by decisiond_perf_fixtures, read by perf/paths.lua;
#                     a run that sends more calls wraps round to repeats, and each run's
#                     repeats (decisiond's duplicate counter) are reported
#   TRACKING_VERSION  X-Tracking-Version, empty = none      (2025-11-01)
#   USERS             the tokens' user ids u1..uN, spread over the cores' partitions (100000)
#                     Each token is an impression of ad 1004, creative 2004 on home_top
#                     (placement 7), a served ad of the demo catalog, issued now, valid 1 h.
# With TARGET=mixed: decisions for users from a pool of USERS (default 100000, capped ads of
#   the demo catalog), each followed by its impression calls (perf/mixed.lua), against
#   decision-only rounds of the same decisiond in the same run, the three kinds of round in
#   rotating order; no nginx. Decision-only rounds come in two kinds: "decide" (mixed.lua
#   parsing every reply but sending no impression, so wrk's cost per decision is the same)
#   and "plain" (perf/decision.lua, no parsing). Reports decisions/s of each (from
#   decisiond's counters) and mixed/decide-only against both.
#   Decisions are counted from decisiond_decisions_total deltas (wrk counts both kinds of
#   request). The demo catalog's home_top ads 1001, 1004 and 1007 (and the targeted 1002,
#   1006) have frequency caps, so each impression updates a cap on the user's owner core.
# With TARGET=overload: perf/overload_load.sh runs instead (one core at overload, plain and
#   HTTPS, 2,000 and 10,000 connections, with and without shedding; a TLS handshake flood).
# With TARGET=tls: perf/tls_load.sh runs instead (HTTPS decisions against nginx terminating
#   TLS, plain decisions in the same run, handshakes; its header has the details).
# With TARGET=cluster: perf/cluster_load.sh runs instead (its header has the details).
#   It starts a Redis Cluster of six redis-server processes on loopback (three primaries,
#   one replica each), then one decisiond with the embedded cap store and one with
#   --caps-store=redis://... to it, in alternating rounds of perf/decision.lua (home_top,
#   USERS users, default 100000, after a FILL run of perf/mixed.lua per store so the users
#   have cap state). Per store: decisions/s, decisiond CPU per decision and its user-space
#   and kernel parts, p50/p99, store round trips and sends per decision, decisions made
#   without capped ads, the Redis processes' CPU per decision; then cluster/embedded CPU
#   (total, user space, kernel) and the latency the store adds, and the primaries' INFO
#   commandstats and commands per read. PROFILE=dir adds a perf profile per store. Redis
#   runs on the CPUs left (on 2 CPUs: wrk's).
# With TARGET=events-sink: perf/events_sink_load.sh runs instead (its header has the
#   details). One decisiond without a sink and one with --events-sink to a local nats-server
#   (JetStream, --events-replicas=1), in alternating rounds of perf/decision.lua: decisions/s,
#   decisiond's CPU per decision with every thread and without the shipper's, the shipper's
#   CPU per line, the lag; then a third decisiond ships a copy of the first one's log with
#   nothing else to do: lines/s against the lines one core generated per second.
# With TARGET=event-log: perf/event_log_load.sh runs instead (its header has the details).
#   Three decisionds of one build, the log on a disk, on tmpfs and written nowhere
#   (--benchmark-events-to-nowhere), in rotating rounds of decisions: a minute of each by
#   default (ROUNDS=10, DURATION=6s), so a disk's page-cache limits, rotations and syncs
#   fall inside the run. Decisions/s per round, the lowest round, disk/tmpfs and each
#   against nowhere; SPLIT=1 (the default) gives decisiond two CPUs, its reactor pinned to
#   one and its other threads and io_uring workers on wrk's.
# With SWAP set (SWAP=100ms): perf/swap_load.sh runs instead (its header has the details).
#   Decisions with and without catalog swaps in alternating rounds of one run, for the demo
#   catalog and a generated 100,000-ad one: a swap round uploads the catalog
#   (POST /admin/catalog), waits for its 200, waits SWAP and uploads again; p50, p99, max
#   and decisions/s of each kind of round, and the swaps each swap round held.
# With TARGET=healthz: GET, no body, no script.
#   TARGET_PLANE  which decisiond listener: admin or public  (admin)
#   TARGET_PATH   the request path; any GET with a fixed reply will do (/healthz)
# TARGET_METHOD is implied by TARGET (POST, GET); set, it must agree.
#
# The cross-core hop (a decision whose user lives on the other core) is measured by
# perf/cross_core_latency.sh instead: decisiond --cores=2, one kept-alive connection, one
# decision at a time alternating users of each core (its header says more).
#
# Why /healthz: its reply is fixed ("ok\n"), so decisiond and nginx send the same body
# and the comparison measures the servers' I/O and HTTP paths, nothing else.
#
# Why the decision target compares with a static file: it prices a whole decision
# (reading the request, selection, sealing each tracking URL, writing the JSON body)
# against the cheapest possible server of a reply of that size. Its home_top request with count 2
# gets 2 creatives from the demo catalog (targeted ads are not eligible yet, video
# placements answer nothing). A decision reply varies from request to request (tracking
# tokens, selection), so a sample of replies is captured first and nginx serves the one of
# median size; the range is printed before the rounds. nginx's static handler answers
# POST with 405; `error_page 405 =200 $uri;` makes it serve the file with status 200.
# nginx also sends the headers decisiond sends beyond nginx's own (X-Decision-Version).
#
# Why video compares with a static file too: the same price as for decision, for a reply
# whose work is mostly sealing tokens (23 per decision: 9 in the json creative's tracking
# arrays, 12 inside the vast_xml document plus its custom event, the vast_tag creative's
# custom event; and the tag's sealed payload and HMAC) and writing text.
# count 3 keeps every reply alike (one creative of each mode, about 13.6 KB); count 1 would
# draw one mode per decision and replies from 1.3 to 8 KB, which no single file matches.
#
# Why tracking compares with `return 204`: an impression call's reply is an empty 204, so
# the comparison prices decisiond's whole path (version header, token authentication, the
# dedup check and cap update on the owning core, the event log line) against the cheapest
# answer a server can give.
#
# decisiond runs with a private --state-dir in a temp dir (it writes keys.json there), the
# demo catalog (video and vast: VIDEO_CATALOG), and none of the caller's DECISIOND_<FLAG> environment variables (they
# would set its flags).
set -euo pipefail

# TARGET=cluster, events-sink and event-log are other scripts', with the same conventions (the
# environment passes on).
[[ "${TARGET:-}" != cluster ]] || exec "$(dirname "${BASH_SOURCE[0]}")/cluster_load.sh"
[[ "${TARGET:-}" != tls ]] || exec "$(dirname "${BASH_SOURCE[0]}")/tls_load.sh"
[[ "${TARGET:-}" != overload ]] || exec "$(dirname "${BASH_SOURCE[0]}")/overload_load.sh"
[[ "${TARGET:-}" != events-sink ]] || exec "$(dirname "${BASH_SOURCE[0]}")/events_sink_load.sh"
[[ "${TARGET:-}" != event-log ]] || exec "$(dirname "${BASH_SOURCE[0]}")/event_log_load.sh"
[[ -z "${SWAP:-}" ]] || exec "$(dirname "${BASH_SOURCE[0]}")/swap_load.sh"

DECISIOND=${DECISIOND:-build/decisiond}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
WARMUP=${WARMUP:-1s}
SEED=${SEED:-1}
TARGET=${TARGET:-decision}
NGINX=/usr/sbin/nginx
FIXTURES=${FIXTURES:-$(dirname "$DECISIOND")/perf/decisiond_perf_fixtures}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DECISION_LUA=$SCRIPT_DIR/decision.lua
VIDEO_CATALOG=${VIDEO_CATALOG:-$SCRIPT_DIR/video_catalog.json}
# Replies sampled before the rounds to size nginx's file (decision target).
REPLY_SAMPLES_MAX=31

die() {
  echo "load.sh: $*" >&2
  exit 1
}
LOAD_SCRIPT=load.sh
source "$SCRIPT_DIR/load_common.sh"

[[ -x "$DECISIOND" ]] || die "no decisiond at '$DECISIOND': run \`make build\` first (or set DECISIOND)"
[[ -x "$NGINX" ]] || die "no $NGINX: run tools/install-deps (package nginx-light)"
for tool in wrk curl taskset; do
  command -v "$tool" >/dev/null || die "no $tool: run tools/install-deps"
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
[[ "$CONNECTIONS" =~ ^[1-9][0-9]*$ ]] || die "CONNECTIONS must be a positive integer, not '$CONNECTIONS'"
[[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be an unsigned integer, not '$SEED'"

catalog_args=()
case "$TARGET" in
  decision | video)
    [[ -z "${TARGET_PLANE:-}${TARGET_PATH:-}" ]] \
      || die "TARGET_PLANE and TARGET_PATH apply to TARGET=healthz only; TARGET=$TARGET is POST /v1/decision on the public plane"
    [[ "${TARGET_METHOD:-POST}" == POST ]] || die "TARGET=$TARGET sends POST, not TARGET_METHOD=$TARGET_METHOD"
    TARGET_METHOD=POST
    TARGET_PLANE=public
    TARGET_PATH=/v1/decision
    USERS=${USERS:-1000}
    DECISION_VERSION=${DECISION_VERSION-2025-11-01}
    ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
    [[ "$USERS" =~ ^[1-9][0-9]{0,5}$ ]] || die "USERS must be an integer from 1 to 999999, not '$USERS'"
    [[ -f "$DECISION_LUA" ]] || die "no wrk script at $DECISION_LUA"
    if [[ -n "${TARGET_BODY_FILE:-}" ]]; then
      [[ -z "${DECISION_BODY:-}" ]] || die "set DECISION_BODY or TARGET_BODY_FILE, not both"
      [[ -r "$TARGET_BODY_FILE" ]] || die "cannot read TARGET_BODY_FILE '$TARGET_BODY_FILE'"
      DECISION_BODY=$(<"$TARGET_BODY_FILE")
    fi
    if [[ "$TARGET" == video ]]; then
      [[ -r "$VIDEO_CATALOG" ]] || die "cannot read VIDEO_CATALOG '$VIDEO_CATALOG'"
      catalog_args=(--catalog="$VIDEO_CATALOG")
      DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"video_preroll","count":3}],"user":{"id":"@USER@"}}'}
    fi
    DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}}'}
    # One body per line in the file wrk reads. Raw line breaks in JSON are whitespace
    # outside strings and forbidden inside them, so dropping them changes nothing.
    DECISION_BODY=$(printf '%s' "$DECISION_BODY" | tr -d '\r\n')
    [[ -n "$DECISION_BODY" ]] || die "the decision body is empty"
    ;;
  mixed)
    TARGET_METHOD=POST
    TARGET_PLANE=public
    TARGET_PATH=/v1/decision
    USERS=${USERS:-100000}
    DECISION_VERSION=${DECISION_VERSION-2025-11-01}
    ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
    [[ "$USERS" =~ ^[1-9][0-9]{0,5}$ ]] || die "USERS must be an integer from 1 to 999999, not '$USERS'"
    # One creative per decision: each decision is followed by exactly its impression call.
    DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":1}],"user":{"id":"@USER@"}}'}
    DECISION_BODY=$(printf '%s' "$DECISION_BODY" | tr -d '\r\n')
    ;;
  tracking)
    TARGET_METHOD=GET
    TARGET_PLANE=public
    TARGET_PATH=/v1/tracking
    TOKENS_PER_RUN=${TOKENS_PER_RUN:-1500000}
    TRACKING_VERSION=${TRACKING_VERSION-2025-11-01}
    USERS=${USERS:-100000}
    [[ "$TOKENS_PER_RUN" =~ ^[1-9][0-9]*$ ]] || die "TOKENS_PER_RUN must be a positive integer"
    [[ -x "$FIXTURES" ]] || die "no $FIXTURES: build the target decisiond_perf_fixtures (make bench does)"
    ;;
  vast)
    TARGET_METHOD=GET
    TARGET_PLANE=public
    TARGET_PATH=/v1/vast
    USERS=${USERS:-200}
    [[ "$USERS" =~ ^[1-9][0-9]{0,5}$ ]] || die "USERS must be an integer from 1 to 999999, not '$USERS'"
    [[ -r "$VIDEO_CATALOG" ]] || die "cannot read VIDEO_CATALOG '$VIDEO_CATALOG'"
    catalog_args=(--catalog="$VIDEO_CATALOG")
    ;;
  healthz)
    [[ -z "${TARGET_BODY_FILE:-}${DECISION_BODY:-}" ]] || die "TARGET=healthz sends no body (TARGET_BODY_FILE, DECISION_BODY)"
    [[ "${TARGET_METHOD:-GET}" == GET ]] || die "TARGET=healthz sends GET, not TARGET_METHOD=$TARGET_METHOD"
    TARGET_METHOD=GET
    TARGET_PLANE=${TARGET_PLANE:-admin}
    TARGET_PATH=${TARGET_PATH:-/healthz}
    ;;
  *) die "TARGET must be decision, video, vast, tracking, mixed, cluster, events-sink, event-log or healthz, not '$TARGET'" ;;
esac
[[ "$TARGET_PATH" == /* ]] || die "TARGET_PATH must start with '/', not '$TARGET_PATH'"
case "$TARGET_PLANE" in
  admin | public) ;;
  *) die "TARGET_PLANE must be admin or public, not '$TARGET_PLANE'" ;;
esac

# --- clean-up: every process started here, and the temp dir, on any exit -------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-load.XXXXXX")
decisiond_pid=""
nginx_pid=""
wrk_pid=""

cleanup() {
  trap - EXIT INT TERM
  stop_process "$wrk_pid" wrk
  stop_process "$nginx_pid" nginx
  stop_process "$decisiond_pid" decisiond
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the machine --------------------------------------------------------------------

print_machine "$(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}'), $("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"

list_allowed_cpus
wrk_cpu=${allowed_cpus[0]}
if ((${#allowed_cpus[@]} >= 2)); then
  server_cpu=${allowed_cpus[1]}
  echo "cpus:   wrk on CPU $wrk_cpu, each server on CPU $server_cpu (one at a time)"
else
  server_cpu=$wrk_cpu
  echo "cpus:   only CPU $wrk_cpu is available: wrk and the server share it, so the figures" \
    "understate both servers"
fi

# Polls url until it answers or pid exits; 10 s at most.
wait_until_serving() {  # name pid url log
  for _ in $(seq 100); do
    if ! kill -0 "$2" 2>/dev/null; then
      echo "load.sh: $1 exited before serving; its log:" >&2
      cat "$4" >&2
      exit 1
    fi
    curl --noproxy '*' -s -o /dev/null --max-time 1 "$3" && return 0
    sleep 0.1
  done
  echo "load.sh: $1 did not answer $3 within 10 s; its log:" >&2
  cat "$4" >&2
  exit 1
}

# --- decisiond ----------------------------------------------------------------------

next_free_port
public_port=$port
next_free_port
admin_port=$port
mkdir "$tmp/state"
# DECISIOND_<FLAG> variables in the caller's environment would set decisiond's flags (and
# an unknown one stops it); the run's flags are all on the command line.
env_unset=()
while IFS= read -r name; do
  [[ "$name" == DECISIOND_* ]] && env_unset+=(-u "$name")
done < <(compgen -e)
if ((${#env_unset[@]} > 0)); then
  echo "note:   not passing to decisiond: $(printf '%s\n' "${env_unset[@]}" | grep -v '^-u$' | paste -sd' ' -)"
fi
taskset -c "$server_cpu" env "${env_unset[@]}" "$DECISIOND" --cores=1 --pin --seed="$SEED" \
  --listen="127.0.0.1:$public_port" --admin-listen="127.0.0.1:$admin_port" \
  --state-dir="$tmp/state" "${catalog_args[@]}" >"$tmp/decisiond.log" 2>&1 &
decisiond_pid=$!
admin_url="http://127.0.0.1:$admin_port"
wait_until_serving decisiond "$decisiond_pid" "$admin_url/healthz" "$tmp/decisiond.log"
echo "server: $(grep -m1 'serving' "$tmp/decisiond.log" || true) seed=$SEED"

if [[ "$TARGET_PLANE" == admin ]]; then target_port=$admin_port; else target_port=$public_port; fi
decisiond_url="http://127.0.0.1:$target_port$TARGET_PATH"

# --- the requests -------------------------------------------------------------------

# curl and wrk send the same requests: for POST, the bodies in $tmp/bodies.txt, one per
# line, with these headers (decision.lua builds its own from the same arguments).
curl_request=()
wrk_script=()
wrk_script_args=()
if [[ "$TARGET_METHOD" == POST ]]; then
  DECISION_BODY="$DECISION_BODY" awk -v users="$USERS" 'BEGIN {
    for (i = 1; i <= users; i++) { b = ENVIRON["DECISION_BODY"]; gsub(/@USER@/, "u" i, b); print b } }' \
    >"$tmp/bodies.txt"
  [[ "$DECISION_BODY" == *@USER@* ]] \
    || echo "note:   the body has no @USER@: every request is the same, with no user id varied"
  curl_request=(-X POST -H 'Content-Type: application/json')
  [[ -z "$DECISION_VERSION" ]] || curl_request+=(-H "X-Decision-Version: $DECISION_VERSION")
  [[ -z "$ACCEPT_LANGUAGE" ]] || curl_request+=(-H "Accept-Language: $ACCEPT_LANGUAGE")
  wrk_script=(-s "$DECISION_LUA")
  wrk_script_args=(-- "$tmp/bodies.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE")
fi
body_of_user() { sed -n "${1}p" "$tmp/bodies.txt"; }

# --- TARGET=tracking: fresh tokens, one file per decisiond run -------------------------

if [[ "$TARGET" == tracking ]]; then
  # Sealed with the keys decisiond created in its state dir at start: exactly the tokens its
  # decisions would hand out (an impression of a demo ad, users u1..u$USERS).
  for ((run = 0; run <= ROUNDS; run++)); do
    "$FIXTURES" tokens --state-dir "$tmp/state" --count "$TOKENS_PER_RUN" --users "$USERS" >"$tmp/paths-$run.txt" \
      || die "could not mint tokens with $FIXTURES"
  done
  wrk_script=(-s "$SCRIPT_DIR/paths.lua")
  wrk_script_args=(-- "$tmp/paths-0.txt" "$TRACKING_VERSION")
  curl_request=()
  [[ -z "$TRACKING_VERSION" ]] || curl_request+=(-H "X-Tracking-Version: $TRACKING_VERSION")
  # The sample reply (and the location nginx answers) is the first path's.
  decisiond_url="http://127.0.0.1:$target_port$(head -n1 "$tmp/paths-0.txt")"
  echo "tokens: $TOKENS_PER_RUN fresh impression tokens per decisiond run, users u1-u$USERS"
fi

# --- TARGET=vast: tag URLs from decisiond's own vast_tag decisions ---------------------

if [[ "$TARGET" == vast ]]; then
  for ((u = 1; u <= USERS; u++)); do
    curl --noproxy '*' -s --max-time 5 -X POST -H 'Content-Type: application/json' \
      -H 'X-Decision-Version: 2025-11-01' -H 'Accept-Language: fr-CH, fr;q=0.9, en;q=0.8' \
      --data-binary '{"placements":[{"key":"video_vast_tag","count":1}],"user":{"id":"u'"$u"'"}}' \
      "http://127.0.0.1:$public_port/v1/decision" | { grep -o '"tagUrl":"[^"]*"' || true; } |
      sed 's/^"tagUrl":"//; s/"$//; s#^https\{0,1\}://[^/]*##'
  done >"$tmp/tag-paths.txt"
  [[ $(wc -l <"$tmp/tag-paths.txt") -eq "$USERS" ]] \
    || die "expected $USERS tag URLs from vast_tag decisions on video_vast_tag, got $(wc -l <"$tmp/tag-paths.txt")"
  wrk_script=(-s "$SCRIPT_DIR/paths.lua")
  wrk_script_args=(-- "$tmp/tag-paths.txt" "")
  # The sample reply (and the location nginx answers) is the first tag's document.
  decisiond_url="http://127.0.0.1:$target_port$(head -n1 "$tmp/tag-paths.txt")"
  echo "tags:   $USERS signed tag URLs from vast_tag decisions (users u1-u$USERS, fr), fetched in turn"
fi

# --- TARGET=mixed: decisions and their impressions against decisions alone -------------

if [[ "$TARGET" == mixed ]]; then
  decisions_total() {
    curl --noproxy '*' -s --max-time 5 "$admin_url/metrics" |
      awk '/^decisiond_decisions_total\{/ { d += $NF } /^decisiond_impressions_(counted|duplicate)_total\{/ { i += $NF }
           /^decisiond_http_requests_total\{/ && index($0, "listener=\"public\"") && !index($0, "status=\"2") { bad += $NF }
           END { printf "%d %d %d\n", d, i, bad }'
  }
  echo
  echo "wrk: -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS rounds of each kind, the order rotating; decisions/s from decisiond's counters"
  echo "  mixed: each decision followed by its impression call (perf/mixed.lua); decide: decisions only, wrk"
  echo "  parsing the replies as in mixed (same client cost); plain: decisions only through perf/decision.lua"
  echo "  (no reply parsing, wrk's cheapest)"
  echo "  srv%: decisiond's CPU time over the round's wall time (100 = one CPU); when it is well below"
  echo "  100 the client (wrk parsing every reply in Lua) was the limit, not the server"
  echo "  srv_us/dec: decisiond's CPU time per decision, its impression call included in mixed rounds"
  printf '%5s  %-8s  %12s  %14s  %9s  %9s  %6s  %10s\n' round kind "decisions/s" "impressions/s" p50_us p99_us "srv%" "srv_us/dec"
  declare -A mixed_rate
  for ((round = 1; round <= ROUNDS; round++)); do
    case $((round % 3)) in
      1) kinds=(decide mixed plain) ;;
      2) kinds=(mixed plain decide) ;;
      0) kinds=(plain decide mixed) ;;
    esac
    for kind in "${kinds[@]}"; do
      read -r d0 i0 bad0 <<<"$(decisions_total)"
      ticks0=$(sed 's/^.*) //' "/proc/$decisiond_pid/stat" | awk '{print $12 + $13}')
      if [[ "$kind" == plain ]]; then
        script=("$DECISION_LUA" "$decisiond_url" -- "$tmp/bodies.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE")
      else
        script=("$SCRIPT_DIR/mixed.lua" "$decisiond_url" -- "$tmp/bodies.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE" "$kind")
      fi
      start_ns=$(date +%s%N)
      taskset -c "$wrk_cpu" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "${script[@]}" \
        >"$tmp/wrk-mixed-$kind-$round.txt" 2>&1 \
        || { cat "$tmp/wrk-mixed-$kind-$round.txt" >&2; die "wrk failed"; }
      end_ns=$(date +%s%N)
      ticks1=$(sed 's/^.*) //' "/proc/$decisiond_pid/stat" | awk '{print $12 + $13}')
      read -r d1 i1 bad1 <<<"$(decisions_total)"
      srv=$(awk -v t="$((ticks1 - ticks0))" -v hz="$(getconf CLK_TCK)" -v ns="$((end_ns - start_ns))" \
        'BEGIN { printf "%.0f", 100 * t / hz / (ns / 1e9) }')
      seconds=$(awk -v ns="$((end_ns - start_ns))" 'BEGIN { printf "%.3f", ns / 1e9 }')
      rate=$(awk -v n="$((d1 - d0))" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
      irate=$(awk -v n="$((i1 - i0))" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
      mixed_rate[$kind,$round]=$rate
      p50=$(to_us "$(awk '$1 == "50%" {print $2}' "$tmp/wrk-mixed-$kind-$round.txt")")
      p99=$(to_us "$(awk '$1 == "99%" {print $2}' "$tmp/wrk-mixed-$kind-$round.txt")")
      non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$tmp/wrk-mixed-$kind-$round.txt")
      ((bad1 - bad0 == 0)) || non2xx="${non2xx:-0} (wrk), $((bad1 - bad0)) not 2xx (decisiond's count)"
      us_per=$(awk -v t="$((ticks1 - ticks0))" -v hz="$(getconf CLK_TCK)" -v n="$((d1 - d0))" \
        'BEGIN { if (n == 0) print "n/a"; else printf "%.1f", 1e6 * t / hz / n }')
      printf '%5s  %-8s  %12s  %14s  %9s  %9s  %6s  %10s  %s\n' "$round" "$kind" "$rate" "$irate" "$p50" "$p99" "$srv" \
        "$us_per" "${non2xx:+non-2xx: $non2xx}"
      [[ -z "$non2xx" ]] || die "replies with status >= 400 during round $round ($kind)"
    done
  done
  med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
  decide_values=()
  mixed_values=()
  plain_values=()
  for ((round = 1; round <= ROUNDS; round++)); do
    decide_values+=("${mixed_rate[decide,$round]}")
    mixed_values+=("${mixed_rate[mixed,$round]}")
    plain_values+=("${mixed_rate[plain,$round]}")
  done
  d_med=$(med "${decide_values[@]}")
  m_med=$(med "${mixed_values[@]}")
  p_med=$(med "${plain_values[@]}")
  echo
  echo "summary (median of $ROUNDS rounds): decisions/s mixed $m_med, decide $d_med, plain $p_med"
  echo "  mixed/decide-only: $(awk -v a="$m_med" -v b="$d_med" 'BEGIN { printf "%.3f", a / b }') against decide" \
    "(the same wrk script), $(awk -v a="$m_med" -v b="$p_med" 'BEGIN { printf "%.3f", a / b }') against plain (decision.lua)"
  echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

# fetch url head-file body-file [user]: one request as wrk sends it; prints the status.
fetch() {
  local data=()
  [[ "$TARGET_METHOD" != POST ]] || data=(--data-binary "$(body_of_user "$4")")
  curl --noproxy '*' -s --max-time 5 "${curl_request[@]}" "${data[@]}" -D "$2" -o "$3" "$1" \
    || die "could not fetch $1"
  head -n1 "$2" | awk '{print $2}'
}

# --- nginx serving one of decisiond's reply bodies -----------------------------------

if [[ "$TARGET_METHOD" == POST ]]; then
  # Replies differ by request; nginx serves the one of median size among a few users'.
  samples=$((USERS < REPLY_SAMPLES_MAX ? USERS : REPLY_SAMPLES_MAX))
  for ((u = 1; u <= samples; u++)); do
    status=$(fetch "$decisiond_url" "$tmp/sample-$u.head" "$tmp/sample-$u.body" "$u")
    if [[ "$status" != 2* ]]; then
      echo "load.sh: decisiond answered status $status to user $u's request:" >&2
      echo "  body: $(body_of_user "$u")" >&2
      echo "  reply: $(head -c 2000 "$tmp/sample-$u.body")" >&2
      exit 1
    fi
    echo "$(wc -c <"$tmp/sample-$u.body") $u"
  done | sort -n -k1,1 >"$tmp/sample-sizes"
  median_user=$(awk '{ u[NR] = $2 } END { print u[int((NR + 1) / 2)] }' "$tmp/sample-sizes")
  reply_size_range=$(awk '{ s[NR] = $1 } END { printf "%d, %d, %d", s[1], s[int((NR + 1) / 2)], s[NR] }' "$tmp/sample-sizes")
  cp "$tmp/sample-$median_user.head" "$tmp/decisiond.head"
  if [[ "$TARGET" == video && "$DECISION_BODY" == *video_preroll*'"count":3'* ]]; then
    for delivery in json vast_xml vast_tag; do
      grep -q "\"delivery\":\"$delivery\"" "$tmp/sample-$median_user.body" \
        || die "user $median_user's reply has no $delivery creative: $(head -c 600 "$tmp/sample-$median_user.body")"
    done
  fi
  cp "$tmp/sample-$median_user.body" "$tmp/reply.body"
else
  median_user=""
  decisiond_status=$(fetch "$decisiond_url" "$tmp/decisiond.head" "$tmp/reply.body")
  if [[ "$decisiond_status" != 2* ]]; then
    echo "note:   decisiond answers $TARGET_METHOD $TARGET_PATH with status $decisiond_status;" \
      "nginx will answer 200 with the same body"
  fi
fi
content_type=$({ grep -i '^content-type:' "$tmp/decisiond.head" || true; } | head -n1 | sed 's/^[^:]*:[[:space:]]*//' | tr -d '\r')
[[ -n "$content_type" ]] || content_type=application/octet-stream

# The headers decisiond sends that nginx does not send on its own (X-Decision-Version),
# so that both replies carry the same fields; nginx adds Server and Connection.
extra_headers=""
while IFS= read -r line; do
  line=${line%$'\r'}
  name=${line%%:*}
  value=${line#*:}
  value=${value#"${value%%[![:space:]]*}"}  # leading blanks
  case "${name,,}" in
    date | content-type | content-length | connection | keep-alive | server | transfer-encoding) continue ;;
  esac
  if [[ "$value" == *[\"\$\\]* ]]; then
    echo "note:   nginx does not copy decisiond's header $name (its value needs quoting)"
    continue
  fi
  extra_headers+="      add_header $name \"$value\" always;"$'\n'
done < <(tail -n +2 "$tmp/decisiond.head" | grep ':')

post_rule=""
if [[ "$TARGET_METHOD" == POST ]]; then
  # The static handler answers POST with 405; internally redirected by error_page, the
  # request becomes a GET of the same URI and gets the file with status 200.
  post_rule="error_page 405 =200 \$uri;"
fi

nginx_answer="alias $tmp/www/reply.body;"
# An impression call's reply is an empty 204: nginx's cheapest answer is the same.
[[ "$TARGET" != tracking ]] || nginx_answer="return 204;"

next_free_port
nginx_port=$port
mkdir "$tmp/www" "$tmp/nginx-temp"
cp "$tmp/reply.body" "$tmp/www/reply.body"
cat >"$tmp/nginx.conf" <<EOF
# One process on one CPU, like decisiond --cores=1: no master, no access log.
master_process off;
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log warn;
events {
  worker_connections $((CONNECTIONS + 64));
}
http {
$(nginx_http_basics)
  server {
    listen 127.0.0.1:$nginx_port;
    location = ${TARGET_PATH%%\?*} {
      types { }
      default_type "$content_type";
      # Drop the headers decisiond does not send, so the replies differ only by the
      # Server and Connection headers nginx always adds.
      etag off;
      max_ranges 0;  # no Accept-Ranges
      add_header Last-Modified "";  # an empty value removes it
$extra_headers      $post_rule
      $nginx_answer
    }
  }
}
EOF
taskset -c "$server_cpu" "$NGINX" -p "$tmp/" -e "$tmp/nginx-error.log" -c "$tmp/nginx.conf" \
  -g 'daemon off;' >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
nginx_url="http://127.0.0.1:$nginx_port$TARGET_PATH"
wait_until_serving nginx "$nginx_pid" "$nginx_url" "$tmp/nginx-error.log"

nginx_expected=200
[[ "$TARGET" != tracking ]] || nginx_expected=204
nginx_status=$(fetch "$nginx_url" "$tmp/nginx.head" "$tmp/nginx.body" "${median_user:-}")
[[ "$nginx_status" == "$nginx_expected" ]] || die "nginx answered $TARGET_METHOD $TARGET_PATH with status $nginx_status, not $nginx_expected"
cmp -s "$tmp/reply.body" "$tmp/nginx.body" || die "nginx's body differs from decisiond's"

reply_sizes() {  # head body
  local head body
  head=$(wc -c <"$1")
  body=$(wc -c <"$2")
  echo "$((head + body)) bytes (headers $head + body $body)"
}
header_names() { tail -n +2 "$1" | tr -d '\r' | sed -n 's/:.*//p' | paste -sd, -; }

echo
echo "target: $TARGET_METHOD $TARGET_PATH ($TARGET_PLANE plane), Content-Type: $content_type"
if [[ "$TARGET_METHOD" == POST ]]; then
  echo "requests: $USERS bodies in turn, $(wc -c <"$tmp/bodies.txt") bytes in all; user 1's:"
  echo "  $(body_of_user 1)"
  echo "  headers: Content-Type: application/json${DECISION_VERSION:+, X-Decision-Version: $DECISION_VERSION}${ACCEPT_LANGUAGE:+, Accept-Language: $ACCEPT_LANGUAGE}"
  echo "decisiond reply bodies of users 1-$samples: $reply_size_range bytes (min, median, max);" \
    "nginx serves user $median_user's ($(grep -o '"adId"' "$tmp/reply.body" | wc -l) creatives)"
fi
echo "decisiond reply: $(reply_sizes "$tmp/decisiond.head" "$tmp/reply.body"); $(head -n1 "$tmp/decisiond.head" | tr -d '\r'); $(header_names "$tmp/decisiond.head")"
echo "nginx reply:     $(reply_sizes "$tmp/nginx.head" "$tmp/nginx.body"); $(head -n1 "$tmp/nginx.head" | tr -d '\r'); $(header_names "$tmp/nginx.head")"

# --- wrk ----------------------------------------------------------------------------

# wrk prints latencies as 812.00us, 1.23ms, 2.00s or 1.50m; in microseconds.

run_wrk() {  # url duration output
  taskset -c "$wrk_cpu" wrk -t1 -c"$CONNECTIONS" -d"$2" --latency "${wrk_script[@]}" "$1" \
    "${wrk_script_args[@]}" >"$3" 2>&1 &
  wrk_pid=$!
  local rc=0
  wait "$wrk_pid" || rc=$?
  wrk_pid=""
  if ((rc != 0)); then
    cat "$3" >&2
    die "wrk failed (status $rc) against $1"
  fi
}

# The errors wrk reports in its output file $1: socket errors and replies with status >= 400
# (wrk's "Non-2xx or 3xx" line counts only those); empty when there are none.
wrk_errors() {
  local socket non2xx
  socket=$(grep -m1 'Socket errors:' "$1" | sed 's/^[[:space:]]*Socket errors:[[:space:]]*//' || true)
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$1")
  echo "${socket:+socket errors: $socket; }${non2xx:+status >= 400 (wrk): $non2xx; }"
}

# decisiond's own counts, from its metrics page: "replies non2xx decisions creatives",
# replies on the target's listener (the metrics route excluded: that is this scrape) and
# those whose status is not 2xx, 3xx included, which wrk does not count.
decisiond_counters() {
  curl --noproxy '*' -s --max-time 5 -o "$tmp/metrics.txt" "$admin_url/metrics" \
    || die "could not read $admin_url/metrics"
  awk -v listener="listener=\"$TARGET_PLANE\"" '
    /^decisiond_http_requests_total\{/ && index($0, listener) && !index($0, "route=\"metrics\"") {
      n += $NF; if (!index($0, "status=\"2")) bad += $NF }
    /^decisiond_decisions_total\{/ { d += $NF }
    /^decisiond_decision_creatives_total\{/ { c += $NF }
    /^decisiond_impressions_duplicate_total\{/ { dup += $NF }
    END { printf "%d %d %d %d %d\n", n, bad, d, c, dup }' "$tmp/metrics.txt"
}

declare -A rate p50 p99 cpu_us
declare -a repeats_of_round=()
notes=()
decisions_measured=0
creatives_measured=0
duplicates_measured=0

# CPU time a process has used, every thread included, in clock ticks. The fields after
# the command name (which is in parentheses); utime and stime are the 14th and 15th.
# "busy total" ticks of one CPU since boot, from /proc/stat (idle and iowait are not busy).
clock_ticks_per_s=$(getconf CLK_TCK)

measure() {  # server round
  local server=$1 round=$2 url out pid
  if [[ "$server" == decisiond ]]; then url=$decisiond_url pid=$decisiond_pid; else url=$nginx_url pid=$nginx_pid; fi
  out="$tmp/wrk-$server-$round.txt"
  # Whether the server or the client was the limit, and whether other work on the
  # machine took a share: the server's own CPU use, and how busy each of the two CPUs was.
  local server_ticks0 wrk_cpu0 server_cpu0 start_ns
  server_ticks0=$(process_ticks "$pid")
  wrk_cpu0=$(cpu_ticks "$wrk_cpu")
  server_cpu0=$(cpu_ticks "$server_cpu")
  local counters0=(0 0 0 0 0) counters
  if [[ "$server" == decisiond ]]; then
    counters=$(decisiond_counters)
    read -ra counters0 <<<"$counters"
  fi
  start_ns=$(date +%s%N)
  run_wrk "$url" "$DURATION" "$out"
  local server_ticks1 wrk_cpu1 server_cpu1 end_ns server_pct wrk_cpu_busy_pct server_cpu_busy_pct
  server_ticks1=$(process_ticks "$pid")
  wrk_cpu1=$(cpu_ticks "$wrk_cpu")
  server_cpu1=$(cpu_ticks "$server_cpu")
  end_ns=$(date +%s%N)
  server_pct=$(awk -v t="$((server_ticks1 - server_ticks0))" -v hz="$clock_ticks_per_s" \
    -v ns="$((end_ns - start_ns))" 'BEGIN { printf "%.0f", 100 * t / hz / (ns / 1e9) }')
  wrk_cpu_busy_pct=$(busy_pct "$wrk_cpu0" "$wrk_cpu1")
  server_cpu_busy_pct=$(busy_pct "$server_cpu0" "$server_cpu1")
  local counters1=(0 0 0 0 0) server_non2xx=0
  if [[ "$server" == decisiond ]]; then
    counters=$(decisiond_counters)
    read -ra counters1 <<<"$counters"
    server_non2xx=$((counters1[1] - counters0[1]))
    decisions_measured=$((decisions_measured + counters1[2] - counters0[2]))
    creatives_measured=$((creatives_measured + counters1[3] - counters0[3]))
    duplicates_measured=$((duplicates_measured + counters1[4] - counters0[4]))
    repeats_of_round[round]=$((counters1[4] - counters0[4]))
  fi
  local r p50_raw p99_raw requests
  r=$(awk '/^Requests\/sec:/ {print $2}' "$out")
  p50_raw=$(awk '$1 == "50%" {print $2}' "$out")
  p99_raw=$(awk '$1 == "99%" {print $2}' "$out")
  [[ -n "$r" && -n "$p50_raw" && -n "$p99_raw" ]] || {
    cat "$out" >&2
    die "could not read wrk's output for $server"
  }
  requests=$(awk '/requests in/ {print $1}' "$out")
  # The server's CPU time per reply; the price of one request when srv% is near 100.
  local us_per_request
  us_per_request=$(awk -v t="$((server_ticks1 - server_ticks0))" -v hz="$clock_ticks_per_s" -v n="$requests" \
    'BEGIN { if (n == 0) print "nan"; else printf "%.1f", 1e6 * t / hz / n }')
  # shellcheck disable=SC2034  # read through the nameref in values()
  rate[$server,$round]=$r
  # shellcheck disable=SC2034  # read through the nameref in values()
  cpu_us[$server,$round]=$us_per_request
  p50[$server,$round]=$(to_us "$p50_raw")
  p99[$server,$round]=$(to_us "$p99_raw")
  local errors
  errors=$(wrk_errors "$out")
  ((server_non2xx == 0)) || errors+="non-2xx (decisiond's count): $server_non2xx; "
  errors=${errors%; }
  local shown=${errors:-none}
  printf '%5s  %-9s  %12s  %9s  %9s  %10s  %8s  %10s  %9s  %9s  %s\n' "$round" "$server" "$r" \
    "${p50[$server,$round]}" "${p99[$server,$round]}" "$requests" "$server_pct" "$us_per_request" \
    "$wrk_cpu_busy_pct" "$server_cpu_busy_pct" "$shown"
  [[ -z "$errors" ]] || notes+=("round $round $server: $errors")
  if ! kill -0 "$decisiond_pid" 2>/dev/null || ! kill -0 "$nginx_pid" 2>/dev/null; then
    echo "load.sh: a server exited during round $round; decisiond's log:" >&2
    cat "$tmp/decisiond.log" >&2
    exit 1
  fi
  return 0
}

echo
warm=""
[[ -n "$WARMUP" && "$WARMUP" != 0 ]] && warm=", after an uncounted $WARMUP warm-up per server"
echo "wrk: -t1 -c$CONNECTIONS -d$DURATION --latency, $ROUNDS rounds, order alternating$warm"
if [[ -n "$warm" ]]; then
  for server in decisiond nginx; do
    if [[ "$server" == decisiond ]]; then url=$decisiond_url; else url=$nginx_url; fi
    run_wrk "$url" "$WARMUP" "$tmp/warmup-$server.txt"
    errors=$(wrk_errors "$tmp/warmup-$server.txt")
    [[ -z "$errors" ]] || notes+=("warm-up $server: ${errors%; }")
  done
fi
echo
echo "  srv%: the server process's CPU time over the run's wall time (100 = one CPU);"
echo "  srv_us/req: the server process's CPU time per reply (counted in clock ticks of 1/$clock_ticks_per_s s)"
echo "  cpuN%: how busy CPU N was over the run, by any process (wrk on $wrk_cpu, server on $server_cpu)"
printf '%5s  %-9s  %12s  %9s  %9s  %10s  %8s  %10s  %9s  %9s  %s\n' round server "requests/s" "p50_us" "p99_us" \
  requests "srv%" "srv_us/req" "cpu$wrk_cpu%" "cpu$server_cpu%" errors
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2 == 1)); then order=(decisiond nginx); else order=(nginx decisiond); fi
  for server in "${order[@]}"; do
    # Tracking: each decisiond run gets tokens of its own, so its calls are first sightings.
    [[ "$TARGET" != tracking ]] || wrk_script_args=(-- "$tmp/paths-$round.txt" "$TRACKING_VERSION")
    measure "$server" "$round"
  done
done

values() {  # array server
  local -n table=$1
  local r
  for ((r = 1; r <= ROUNDS; r++)); do echo "${table[$2,$r]}"; done
}

declare -A med_rate med_p50 med_p99 med_cpu_us
for server in decisiond nginx; do
  mapfile -t v < <(values rate "$server")
  med_rate[$server]=$(median "${v[@]}")
  mapfile -t v < <(values p50 "$server")
  med_p50[$server]=$(median "${v[@]}")
  mapfile -t v < <(values p99 "$server")
  med_p99[$server]=$(median "${v[@]}")
  mapfile -t v < <(values cpu_us "$server")
  med_cpu_us[$server]=$(median "${v[@]}")
done

echo
echo "summary (median of $ROUNDS rounds)"
printf '  %-9s  %12s  %9s  %9s  %10s\n' server "requests/s" "p50_us" "p99_us" "srv_us/req"
for server in decisiond nginx; do
  printf '  %-9s  %12s  %9.0f  %9.0f  %10s\n' "$server" "${med_rate[$server]}" "${med_p50[$server]}" \
    "${med_p99[$server]}" "${med_cpu_us[$server]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.3f", a / b }'; }
echo "  decisiond/nginx: requests/s $(ratio "${med_rate[decisiond]}" "${med_rate[nginx]}")," \
  "p50 $(ratio "${med_p50[decisiond]}" "${med_p50[nginx]}")," \
  "p99 $(ratio "${med_p99[decisiond]}" "${med_p99[nginx]}"), srv_us/req $(ratio "${med_cpu_us[decisiond]}" "${med_cpu_us[nginx]}")"
if [[ "$TARGET" == decision || "$TARGET" == video ]]; then
  echo "  decisiond served $(awk -v c="$creatives_measured" -v d="$decisions_measured" \
    'BEGIN { if (d == 0) print "n/a"; else printf "%.2f", c / d }') creatives per decision" \
    "over the $decisions_measured decisions of the rounds (its counters)"
fi
if [[ "$TARGET" == tracking ]]; then
  per_round=""
  for ((round = 1; round <= ROUNDS; round++)); do per_round+="${per_round:+, }round $round: ${repeats_of_round[$round]:-n/a}"; done
  echo "  calls whose token was already used (decisiond's duplicate counter, per run: $per_round):" \
    "$duplicates_measured in all; a run repeats only when it outruns its $TOKENS_PER_RUN tokens"
fi
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#notes[@]} > 0)); then
  echo >&2
  echo "load.sh: FAILED: errors during the runs, so the figures above compare unlike work:" >&2
  printf '  %s\n' "${notes[@]}" >&2
  exit 1
fi
