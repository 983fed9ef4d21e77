#!/usr/bin/env bash
# perf/load.sh with SWAP set (SWAP=100ms): the latency of decisions while the catalog is
# swapped again and again (docs/operations.md "Catalog updates"), against the same server
# without swaps, in one run, with a control that runs the same upload loop without a swap.
#
# For each catalog of CATALOGS: one decisiond (--cores=1 --pin) serving that catalog, driven
# by wrk (perf/decision.lua) on the other CPU, in rounds rotating "still" (no update), "send"
# and "swap": during a swap round a loop on wrk's CPU uploads the catalog with POST /admin/catalog, waits for its 200 (every
# core serves it), waits SWAP, and uploads again, the two copies of the catalog differing
# only in their revision, so each upload is a real swap. An upload of a large catalog takes
# longer than SWAP to build: then the swaps come back to back, and the count says how many
# a round held. A send round runs the same loop with the same files, sent as text/plain:
# decisiond reads each body whole and answers 415 at once, without a build or a swap. It is
# the control: curl starting on wrk's CPU every upload, the bytes over loopback and their
# reading by the reactor cost the decisions' latency too (as wrk measures it), and
# swap/send is what the build and the swap add to that. (A send is quicker than an upload,
# so a send round holds more of them.) Per round: decisions/s, p50, p99, max (wrk), swaps done, the mean upload
# time and the replies that were not 2xx (in a swap round, decisions shed while the build
# held the core's CPU); then, per catalog, the median swap/still, send/still and swap/send
# ratios.
#
# Where decisiond runs (SPLIT):
#   1  on both CPUs: --pin puts its reactor on the first, and its other threads (the catalog
#      build among them) and io_uring workers on the second, wrk's (docs/operations.md "What
#      runs beside the reactors"); the upload's body is still read by the reactor
#   0  the whole process on one CPU, as load.sh runs it: the build takes the reactor's CPU
#
# The catalogs (CATALOGS, default "demo big"):
#   demo  catalogs/demo.json, load.sh's catalog; body: home_top, 2 creatives
#   big   100,000 ads on 1,000 placements, targeting on (tools/gen-catalog --ads=100000
#         --placements=1000 --seed=1), generated here; body: slot_0001, 2 creatives
#
# It reports numbers, no thresholds. It fails (exit 1, after printing them) when a decision
# of a still round was not 2xx, an upload was not 200, or wrk saw socket errors. load.sh hands SWAP here;
# run from the repository's root.
#
# Environment (as load.sh):
#   DECISIOND     the binary                                        (build/decisiond)
#   GEN_CATALOG   the generator of the big catalog                  (build/tools/gen-catalog/gen-catalog)
#   SWAP          the pause between an upload's reply and the next  (100ms; as sleep takes it, or Nms)
#   CATALOGS      which catalogs, in order                          (demo big)
#   ROUNDS        rounds of each kind per catalog                   (3)
#   DURATION      wrk -d of each round                              (10s)
#   CONNECTIONS   wrk -c                                            (64)
#   SEED          decisiond --seed                                  (1)
#   USERS         distinct user ids u1..uN, one body each, in turn  (1000)
#   DECISION_VERSION, ACCEPT_LANGUAGE   as load.sh       (2025-11-01; fr-CH, fr;q=0.9, en;q=0.8)
#   SPLIT         1: the reactor alone on its CPU; 0: all of decisiond on one CPU (1)
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
GEN_CATALOG=${GEN_CATALOG:-$(dirname "$DECISIOND")/tools/gen-catalog/gen-catalog}
SWAP=${SWAP:-100ms}
CATALOGS=${CATALOGS:-demo big}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
SEED=${SEED:-1}
USERS=${USERS:-1000}
SPLIT=${SPLIT:-1}
DECISION_VERSION=${DECISION_VERSION-2025-11-01}
ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
DECISION_BODY='{"placements":[{"key":"@PLACEMENT@","count":2}],"user":{"id":"@USER@"}}'
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
KINDS=(still send swap)

die() {
  echo "swap_load.sh: $*" >&2
  exit 1
}
LOAD_SCRIPT=swap_load.sh
source "$SCRIPT_DIR/load_common.sh"

check_decision_settings swap wrk curl taskset
[[ "$SPLIT" =~ ^[01]$ ]] || die "SPLIT must be 0 or 1, not '$SPLIT'"
case "$SWAP" in
  *ms) pause=$(awk -v v="${SWAP%ms}" 'BEGIN { printf "%.3f", v / 1000 }') ;;
  *) pause=$SWAP ;;
esac
[[ "$pause" =~ ^[0-9]+(\.[0-9]+)?s?$ ]] || die "SWAP must be a pause such as 100ms or 0.5, not '$SWAP'"
for catalog in $CATALOGS; do
  [[ "$catalog" == demo || "$catalog" == big ]] || die "CATALOGS holds demo and big, not '$catalog'"
done
[[ " $CATALOGS " != *" big "* || -x "$GEN_CATALOG" ]] || die "no gen-catalog at '$GEN_CATALOG': run \`make build\`"

# --- clean-up: every process started here, by its pid, and the temp dir --------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-swap-load.XXXXXX")
declare -A decisiond_pid=() public_url=() admin_url=()
wrk_pid=""
swapper_pid=""

cleanup() {
  trap - EXIT INT TERM
  stop_process "$swapper_pid" "upload loop" 20
  stop_process "$wrk_pid" wrk
  local name
  for name in "${!decisiond_pid[@]}"; do stop_process "${decisiond_pid[$name]}" "decisiond ($name)"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

print_machine "$(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}'), $(curl --version | head -n1 | awk '{print $1, $2}')"
assign_cpus "the upload loop"
if ((SPLIT)); then
  split_cpus
  echo "cpus:   decisiond on CPUs $decisiond_cpus: its reactor on CPU $server_cpu; the catalog build and its other threads on CPU $wrk_cpu, with wrk and the upload loop"
else
  echo "cpus:   wrk and the upload loop on CPU $wrk_cpu, decisiond (every thread: reactor and the catalog build) on CPU $server_cpu"
fi

# --- the catalogs: two copies of each, differing in their revision ---------------------

# Writes $tmp/<name>-a.json and -b.json and sets placement[name].
declare -A placement
prepare_catalog() {  # name
  local source=$tmp/$1.json
  if [[ "$1" == demo ]]; then
    cp "$REPO_DIR/catalogs/demo.json" "$source"
    placement[$1]=home_top
  else
    "$GEN_CATALOG" --ads=100000 --placements=1000 --seed=1 --out="$source"
    placement[$1]=slot_0001
  fi
  grep -q '"revision"' "$source" || die "catalog $1 has no \"revision\" member"
  local copy
  for copy in a b; do
    sed "0,/\"revision\": *\"[^\"]*\"/s//\"revision\": \"swap-load-$copy\"/" "$source" >"$tmp/$1-$copy.json"
  done
  echo "catalog $1: $(stat -c %s "$source" | awk '{printf "%.3f MB", $1 / 1e6}'), body on ${placement[$1]}"
}

# The upload loop of a swap round: uploads -a and -b in turn until stopped, each after the
# previous one's reply and a pause; one line per upload in its log: "status seconds".
swap_loop() {  # name admin_url log content_type
  local copy=a
  while true; do
    curl --noproxy '*' -s -o /dev/null -w '%{http_code} %{time_total}\n' -X POST \
      -H "Content-Type: $4" --data-binary "@$tmp/$1-$copy.json" "$2/admin/catalog" >>"$3" || true
    if [[ "$copy" == a ]]; then copy=b; else copy=a; fi
    sleep "$pause"
  done
}

echo
echo "wrk: -t1 -c$CONNECTIONS -d$DURATION --latency, perf/decision.lua; $ROUNDS rounds of each kind per catalog," \
  "alternating; swap rounds: an upload, its 200, then $SWAP, again"
echo "  dec/s: decisions per second (wrk); swaps: uploads answered 200 in the round (send: 415); upload_s: their mean time;"
echo "  non_2xx: replies that were not 2xx (in a swap round: shed, 503, and not an error of the run)"
declare -A rate p50 p99 pmax swaps upload_s non2xx
failures=()
for name in $CATALOGS; do
  prepare_catalog "$name"
  mkdir "$tmp/state-$name"
  start_decisiond "$name" "$tmp/state-$name" --catalog="$tmp/$name-a.json"
  DECISION_BODY=${DECISION_BODY//@PLACEMENT@/${placement[$name]}} write_bodies "$tmp/bodies-$name.txt"
  lua_args=(-- "$tmp/bodies-$name.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE")
  run_wrk_lua "$tmp/warmup-$name.txt" 2s "$SCRIPT_DIR/decision.lua" "${public_url[$name]}" "${lua_args[@]}"
  printf '%-5s  %5s  %-5s  %9s  %8s  %8s  %8s  %5s  %8s  %7s  %s\n' catalog round kind "dec/s" p50_us p99_us max_us \
    swaps upload_s non_2xx errors
  for ((round = 1; round <= ROUNDS; round++)); do
    shift_by=$(((round - 1) % ${#KINDS[@]}))
    order=("${KINDS[@]:$shift_by}" "${KINDS[@]:0:$shift_by}")
    for kind in "${order[@]}"; do
      out="$tmp/wrk-$name-$kind-$round.txt"
      uploads="$tmp/uploads-$name-$kind-$round.txt"
      : >"$uploads"
      if [[ "$kind" != still ]]; then
        content_type=application/json
        [[ "$kind" == swap ]] || content_type=text/plain
        taskset -c "$wrk_cpu" bash -c "$(declare -f swap_loop); tmp='$tmp' pause='$pause' swap_loop '$name' '${admin_url[$name]}' '$uploads' '$content_type'" &
        swapper_pid=$!
      fi
      run_wrk_lua "$out" "$DURATION" "$SCRIPT_DIR/decision.lua" "${public_url[$name]}" "${lua_args[@]}"
      if [[ -n "$swapper_pid" ]]; then
        stop_process "$swapper_pid" "upload loop" 20
        swapper_pid=""
        # An upload cut short by the stop is not counted; wait for the one in flight to land.
        sleep 0.2
      fi
      key=$name,$kind,$round
      rate[$key]=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$out")
      p50[$key]=$(to_us "$(awk '$1 == "50%" {print $2}' "$out")")
      p99[$key]=$(to_us "$(awk '$1 == "99%" {print $2}' "$out")")
      pmax[$key]=$(to_us "$(awk '$1 == "Latency" {print $4; exit}' "$out")")
      expected=200
      [[ "$kind" != send ]] || expected=415
      swaps[$key]=$(awk -v e="$expected" '$1 == e { n++ } END { print n + 0 }' "$uploads")
      upload_s[$key]=$(awk -v e="$expected" '$1 == e { n++; s += $2 } END { if (n) printf "%.3f", s / n; else print "-" }' "$uploads")
      errors=$(wrk_errors "$out")
      # Replies shed (503, the core behind its lag bound while the build held its CPU) are
      # what a swap costs, not a failure of the run: reported in their own column.
      non2xx[$key]=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$out")
      non2xx[$key]=${non2xx[$key]:-0}
      [[ "$kind" == still ]] || errors=$(printf '%s' "$errors" | sed 's/\(; \)\{0,1\}status >= 400 (wrk): [0-9]*//; s/^; //')
      refused=$(awk -v e="$expected" '$1 != e && $1 != "000" { n++ } END { print n + 0 }' "$uploads")
      ((refused == 0)) || errors+="${errors:+; }uploads not $expected: $refused"
      printf '%-5s  %5s  %-5s  %9s  %8s  %8s  %8s  %5s  %8s  %7s  %s\n' "$name" "$round" "$kind" "${rate[$key]}" \
        "${p50[$key]}" "${p99[$key]}" "${pmax[$key]}" "${swaps[$key]}" "${upload_s[$key]}" "${non2xx[$key]}" \
        "${errors:-none}"
      [[ -z "$errors" ]] || failures+=("$name round $round $kind: $errors")
    done
  done
  stop_process "${decisiond_pid[$name]}" "decisiond ($name)"
  unset "decisiond_pid[$name]"
done

# The median over the rounds of table[catalog,kind,round].
med_kind() {  # table catalog kind
  local -n table=$1
  local r values=()
  for ((r = 1; r <= ROUNDS; r++)); do values+=("${table[$2,$3,$r]}"); done
  median "${values[@]}"
}
echo
echo "summary (median of $ROUNDS rounds)"
printf '  %-5s  %-5s  %9s  %8s  %8s  %8s  %5s\n' catalog kind "dec/s" p50_us p99_us max_us swaps
for name in $CATALOGS; do
  for kind in "${KINDS[@]}"; do
    printf '  %-5s  %-5s  %9.0f  %8.0f  %8.0f  %8.0f  %5.0f\n' "$name" "$kind" "$(med_kind rate "$name" "$kind")" \
      "$(med_kind p50 "$name" "$kind")" "$(med_kind p99 "$name" "$kind")" "$(med_kind pmax "$name" "$kind")" \
      "$(med_kind swaps "$name" "$kind")"
  done
  awk -v p99s="$(med_kind p99 "$name" swap)" -v p99q="$(med_kind p99 "$name" still)" \
    -v p99c="$(med_kind p99 "$name" send)" -v rc="$(med_kind rate "$name" send)" \
    -v rs="$(med_kind rate "$name" swap)" -v rq="$(med_kind rate "$name" still)" -v c="$name" 'BEGIN {
    printf "  %s swap/still: p99 %.3f, decisions/s %.3f\n", c, p99s / p99q, rs / rq
    printf "  %s send/still: p99 %.3f, decisions/s %.3f (the loop and the bytes, no build, no swap)\n", c, p99c / p99q, rc / rq
    printf "  %s swap/send:  p99 %.3f, decisions/s %.3f (what the build and the swap add)\n", c, p99s / p99c, rs / rc }'
done
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#failures[@]} > 0)); then
  echo >&2
  echo "swap_load.sh: FAILED: errors during the rounds, so the figures above compare unlike work:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
