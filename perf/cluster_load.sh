#!/usr/bin/env bash
# perf/load.sh TARGET=cluster: the price of cluster mode's cap store (docs/cluster.md).
# One decisiond with the embedded store and one with --caps-store=redis://... to a local
# Redis Cluster this script starts, both --cores=1 on the same CPU, driven in alternating
# rounds by wrk (perf/decision.lua) on the other CPU with the same decisions: users from a
# pool on home_top, whose capped ads (1001, 1004, 1007 in the demo catalog) make every
# cluster-mode decision read its user's cap state (one HGETALL). It reports numbers, no
# thresholds. It fails (exit 1, after printing them) when a reply was not 2xx (wrk's count
# or decisiond's), wrk saw socket errors, or a decision took more than one store round
# trip. load.sh hands TARGET=cluster here; run from the repository's root.
#
# Environment (as load.sh):
#   DECISIOND     the binary                                       (build/decisiond)
#   ROUNDS        rounds per store, the order alternating          (3)
#   DURATION      wrk -d of each round                             (10s)
#   CONNECTIONS   wrk -c                                           (64)
#   SEED          decisiond --seed                                 (1)
#   USERS         distinct user ids u1..uN, one body each, in turn (100000)
#   DECISION_BODY the request body, @USER@ replaced by the user id
#                 ({"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}})
#   FILL          wrk -d of one uncounted run per store before the rounds, through
#                 perf/mixed.lua: decisions each followed by its impression calls, so the
#                 users' cap state is not empty when the rounds read it     (5s; 0 skips it)
#   DECISION_VERSION, ACCEPT_LANGUAGE   as load.sh        (2025-11-01; fr-CH, fr;q=0.9, en;q=0.8)
#   PROFILE       a directory: after the counted rounds, one more round per store under
#                 `perf record -e cpu-clock -g -F 2000 -p <decisiond>` for PROFILE_SECONDS
#                 (8), its data left in PROFILE/<store>.perf.data with the decisions and the
#                 CPU of that window printed, so `perf report -i` shares can be turned into
#                 microseconds per decision (none: no profile)
#
# The cluster: six redis-server processes (three primaries, one replica each, `save ""`,
# `appendonly no`) on free loopback ports, cluster-port set, in a temp dir, created with
# `redis-cli --cluster create ... --cluster-replicas 1 --cluster-yes`. Redis runs on the
# CPUs left after wrk's and decisiond's; on a 2-CPU machine none is left and Redis shares
# wrk's CPU (printed), so its CPU is charged there, not to decisiond's CPU.
#
# Per store and round: decisions/s (decisiond_decisions_total deltas over wall time),
# decisiond's CPU per decision (utime + stime from /proc/PID/stat) and its two parts, user
# space (utime: our code and the libraries) and kernel (stime: sockets, io_uring, wake-ups),
# wrk's p50 and p99,
# store round trips per decision (decisiond_caps_store_reads_total / decisions), decisions
# made without their capped ads (decisiond_cap_reads_refused_total), and the six Redis
# processes' CPU per decision, and the client's sends to Redis per decision
# (decisiond_redis_sends_total, where the build has it). At the end: user, kernel and total
# CPU per decision of each store and their cluster/embedded ratios, INFO commandstats of the
# primaries, and the commands each primary read per socket read (INFO stats: how well the
# client's sends are gathered).
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
SEED=${SEED:-1}
USERS=${USERS:-100000}
FILL=${FILL:-5s}
PROFILE=${PROFILE:-}
PROFILE_SECONDS=${PROFILE_SECONDS:-8}
DECISION_VERSION=${DECISION_VERSION-2025-11-01}
ACCEPT_LANGUAGE=${ACCEPT_LANGUAGE-fr-CH, fr;q=0.9, en;q=0.8}
DECISION_BODY=${DECISION_BODY:-'{"placements":[{"key":"home_top","count":2}],"user":{"id":"@USER@"}}'}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REDIS_NODES=6
STORES=(embedded cluster)

die() {
  echo "cluster_load.sh: $*" >&2
  exit 1
}
LOAD_SCRIPT=cluster_load.sh
source "$SCRIPT_DIR/load_common.sh"

check_decision_settings cluster wrk curl taskset redis-server redis-cli
[[ -z "$PROFILE" ]] || command -v perf >/dev/null || die "PROFILE needs perf"
[[ "$DECISION_BODY" == *@USER@* ]] || die "DECISION_BODY needs @USER@: the store is read per user"

# --- clean-up: every process started here, and the temp dir, on any exit -------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-cluster-load.XXXXXX")
declare -A decisiond_pid=()
redis_pids=()
wrk_pid=""

cleanup() {
  trap - EXIT INT TERM
  stop_process "$wrk_pid" wrk
  local store pid
  for store in "${!decisiond_pid[@]}"; do stop_process "${decisiond_pid[$store]}" "decisiond ($store)"; done
  for pid in "${redis_pids[@]}"; do stop_process "$pid" redis-server; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the machine --------------------------------------------------------------------

print_machine "$(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}'), $(redis-server --version | awk '{print $2, $3}')"

assign_cpus Redis
redis_cpus=$extra_cpus
redis_where=$extra_where
if ((${#allowed_cpus[@]} >= 2)); then
  echo "cpus:   wrk on CPU $wrk_cpu, decisiond (each store's, one loaded at a time) on CPU $server_cpu, $redis_where"
else
  echo "cpus:   only CPU $wrk_cpu is available: wrk, decisiond and Redis share it, so the figures understate all"
fi

# --- the Redis Cluster ----------------------------------------------------------------

redis_ports=()
for ((i = 0; i < REDIS_NODES; i++)); do
  next_free_port
  redis_port=$port
  next_free_port
  bus_port=$port
  dir="$tmp/redis-$i"
  mkdir "$dir"
  cat >"$dir/redis.conf" <<EOF
port $redis_port
bind 127.0.0.1
protected-mode no
daemonize no
dir $dir
logfile $dir/redis.log
save ""
appendonly no
shutdown-timeout 0
repl-diskless-sync yes
repl-diskless-sync-delay 0
cluster-enabled yes
cluster-port $bus_port
cluster-config-file $dir/nodes.conf
cluster-node-timeout 5000
EOF
  taskset -c "$redis_cpus" redis-server "$dir/redis.conf" >"$dir/stdout.log" 2>&1 &
  redis_pids+=($!)
  redis_ports+=("$redis_port")
done
for ((i = 0; i < REDIS_NODES; i++)); do
  for _ in $(seq 100); do
    kill -0 "${redis_pids[i]}" 2>/dev/null || die "redis-server on port ${redis_ports[i]} exited: $(tail -n 3 "$tmp/redis-$i/redis.log" | tr '\n' ' ')"
    [[ "$(redis-cli -p "${redis_ports[i]}" PING 2>/dev/null)" == PONG ]] && continue 2
    sleep 0.1
  done
  die "redis-server on port ${redis_ports[i]} did not answer PING within 10 s"
done
create_args=()
for p in "${redis_ports[@]}"; do create_args+=("127.0.0.1:$p"); done
redis-cli --cluster create "${create_args[@]}" --cluster-replicas 1 --cluster-yes >"$tmp/cluster-create.log" 2>&1 \
  || die "redis-cli --cluster create failed: $(tail -n 3 "$tmp/cluster-create.log" | tr '\n' ' ')"
for _ in $(seq 300); do
  ok=0
  for p in "${redis_ports[@]}"; do
    redis-cli -p "$p" CLUSTER INFO 2>/dev/null | grep -q '^cluster_state:ok' && ok=$((ok + 1))
  done
  ((ok == REDIS_NODES)) && break
  sleep 0.1
done
((ok == REDIS_NODES)) || die "the cluster did not reach cluster_state:ok on all $REDIS_NODES nodes within 30 s"
primary_ports=()
while read -r p; do primary_ports+=("$p"); done < <(redis-cli -p "${redis_ports[0]}" CLUSTER NODES |
  awk '$3 ~ /master/ && NF >= 9 { split($2, a, "[:@]"); print a[2] }' | sort -n)
((${#primary_ports[@]} == 3)) || die "expected 3 primaries with slots, found ${#primary_ports[@]}"
seed_url="redis://$(printf '127.0.0.1:%s\n' "${primary_ports[@]}" | paste -sd, -)"
echo "redis:  cluster of $REDIS_NODES nodes (3 primaries ${primary_ports[*]}, one replica each), cluster_state:ok"

# --- the two decisionds ---------------------------------------------------------------

declare -A public_url admin_url
for store in "${STORES[@]}"; do
  mkdir "$tmp/state-$store"
  store_args=()
  [[ "$store" == embedded ]] || store_args=(--caps-store="$seed_url")
  start_decisiond "$store" "$tmp/state-$store" "${store_args[@]}"
done
# The cluster store connects after start: wait until it reports the cluster up.
for _ in $(seq 100); do
  state=$(curl --noproxy '*' -s --max-time 1 "${admin_url[cluster]}/metrics" |
    awk '/^decisiond_redis_cluster_state/ { s = $NF } END { print s + 0 }')
  [[ "$state" == 1 ]] && break
  sleep 0.1
done
[[ "$state" == 1 ]] || die "decisiond (cluster) reports decisiond_redis_cluster_state $state, not 1 (up), after 10 s"
echo "server: decisiond --cores=1 --pin --seed=$SEED, demo catalog; embedded, and --caps-store=$seed_url"

# --- the requests -------------------------------------------------------------------

write_bodies "$tmp/bodies.txt"
curl_request=(-X POST -H 'Content-Type: application/json')
[[ -z "$DECISION_VERSION" ]] || curl_request+=(-H "X-Decision-Version: $DECISION_VERSION")
[[ -z "$ACCEPT_LANGUAGE" ]] || curl_request+=(-H "Accept-Language: $ACCEPT_LANGUAGE")
for store in "${STORES[@]}"; do
  status=$(curl --noproxy '*' -s --max-time 5 "${curl_request[@]}" --data-binary "$(head -n1 "$tmp/bodies.txt")" \
    -o "$tmp/sample-$store.body" -w '%{http_code}' "${public_url[$store]}") || die "could not reach decisiond ($store)"
  [[ "$status" == 200 ]] || die "decisiond ($store) answered user 1 with status $status: $(head -c 600 "$tmp/sample-$store.body")"
done
echo "requests: $USERS bodies in turn (users u1-u$USERS); user 1's: $(head -n1 "$tmp/bodies.txt")"
ads_of() { grep -o '"adId":"[^"]*"' "$1" | sed 's/^"adId":"//; s/"$//' | paste -sd' ' -; }
echo "  user 1's ads: $(ads_of "$tmp/sample-embedded.body") (embedded), $(ads_of "$tmp/sample-cluster.body") (cluster)"

# --- measuring ------------------------------------------------------------------------

# "utime stime" of a process, every thread included, in clock ticks.
process_user_sys_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12, $13}'; }
redis_ticks() {
  local pid sum=0
  for pid in "${redis_pids[@]}"; do sum=$((sum + $(process_ticks "$pid"))); done
  echo "$sum"
}
# "decisions reads unavailable non2xx sends" from a metrics page (scrape() of load_common.sh);
# sends is -1 on a build without decisiond_redis_sends_total.
store_counters() {  # file
  awk 'BEGIN { s = -1 }
       /^decisiond_decisions_total\{/ { d += $NF }
       /^decisiond_caps_store_reads_total/ { r += $NF }
       /^decisiond_cap_reads_refused_total/ { u += $NF }
       /^decisiond_redis_sends_total/ { s = (s < 0 ? 0 : s) + $NF }
       /^decisiond_http_requests_total\{/ && index($0, "listener=\"public\"") && !index($0, "status=\"2") { bad += $NF }
       END { printf "%d %d %d %d %d\n", d, r, u, bad, s }' "$1"
}
# The public replies that were not 2xx between two metrics pages, by status, and the
# requests shed for overload: "status 503: 113, shed: 113".
not_2xx_detail() {  # before after
  awk 'FNR == 1 { file++ }
       /^decisiond_http_requests_total\{/ && index($0, "listener=\"public\"") && !index($0, "status=\"2") {
         match($0, /status="[0-9]+"/); st = substr($0, RSTART + 8, 3); n[st] += (file == 1 ? -$NF : $NF) }
       /^decisiond_http_limit_hits_total\{/ && index($0, "listener=\"public\"") && index($0, "overload_shed") {
         shed += (file == 1 ? -$NF : $NF) }
       END { for (st in n) if (n[st]) out = out sprintf("status %s: %d, ", st, n[st]); printf "%sshed: %d", out, shed }' "$1" "$2"
}
hz=$(getconf CLK_TCK)
lua_args=(-- "$tmp/bodies.txt" "$DECISION_VERSION" "$ACCEPT_LANGUAGE")

if [[ -n "$FILL" && "$FILL" != 0 ]]; then
  echo
  echo "fill: $FILL of decisions each followed by its impression calls (perf/mixed.lua) per store, uncounted,"
  echo "  so that the rounds read users with cap state"
  for store in "${STORES[@]}"; do
    run_wrk_lua "$tmp/fill-$store.txt" "$FILL" "$SCRIPT_DIR/mixed.lua" "${public_url[$store]}" "${lua_args[@]}" mixed
  done
  # The cluster store applies impressions after answering 204: let the last ones land.
  sleep 1
fi

echo
echo "wrk: -t1 -c$CONNECTIONS -d$DURATION --latency, perf/decision.lua, $ROUNDS rounds per store, order alternating"
echo "  dec/s: decisions per second (decisiond's counter over the round's wall time)"
echo "  srv%: decisiond's CPU over the round's wall time (100 = one CPU); srv_us/dec: its CPU per decision,"
echo "    usr_us and sys_us: of which in user space (utime) and in the kernel (stime)"
echo "  snd/dec: the client's sends to Redis per decision (decisiond_redis_sends_total; - when not exported)"
echo "  rt/dec: store round trips per decision (decisiond_caps_store_reads_total / decisions)"
echo "  unavail: decisions made without their capped ads (decisiond_cap_reads_refused_total)"
echo "  cpuN%: how busy CPU N was over the round, by any process (wrk and Redis on $wrk_cpu, decisiond on $server_cpu);"
echo "    a share not explained by srv% and redis_us/dec is other work on the machine"
echo "  redis_us/dec: the $REDIS_NODES redis-server processes' CPU per decision (counted in ticks of 1/$hz s)"
row_format='%5s  %-8s  %9s  %7s  %7s  %5s  %10s  %6s  %6s  %6s  %7s  %7s  %12s  %5s  %5s  %s\n'
printf "$row_format" round store "dec/s" p50_us p99_us srv% srv_us/dec usr_us sys_us rt/dec snd/dec unavail redis_us/dec \
  "cpu$wrk_cpu%" "cpu$server_cpu%" errors
declare -A rate p50 p99 srv_us usr_us sys_us redis_us rt snd
failures=()
total_unavailable=0
idle_ticks=0
measured_ns=0
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2 == 1)); then order=(embedded cluster); else order=(cluster embedded); fi
  for store in "${order[@]}"; do
    out="$tmp/wrk-$store-$round.txt"
    pid=${decisiond_pid[$store]}
    scrape "$store" "$tmp/metrics-0.txt"
    read -r d0 r0 u0 bad0 s0 <<<"$(store_counters "$tmp/metrics-0.txt")"
    read -r ut0 st0 <<<"$(process_user_sys_ticks "$pid")"
    idle_pid=${decisiond_pid[$([[ "$store" == embedded ]] && echo cluster || echo embedded)]}
    idle0=$(process_ticks "$idle_pid")
    rt0=$(redis_ticks)
    wrk_cpu0=$(cpu_ticks "$wrk_cpu")
    server_cpu0=$(cpu_ticks "$server_cpu")
    start_ns=$(date +%s%N)
    run_wrk_lua "$out" "$DURATION" "$SCRIPT_DIR/decision.lua" "${public_url[$store]}" "${lua_args[@]}"
    end_ns=$(date +%s%N)
    read -r ut1 st1 <<<"$(process_user_sys_ticks "$pid")"
    wrk_cpu_busy=$(busy_pct "$wrk_cpu0" "$(cpu_ticks "$wrk_cpu")")
    server_cpu_busy=$(busy_pct "$server_cpu0" "$(cpu_ticks "$server_cpu")")
    idle_ticks=$((idle_ticks + $(process_ticks "$idle_pid") - idle0))
    measured_ns=$((measured_ns + end_ns - start_ns))
    rt1=$(redis_ticks)
    scrape "$store" "$tmp/metrics-1.txt"
    read -r d1 r1 u1 bad1 s1 <<<"$(store_counters "$tmp/metrics-1.txt")"
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/decisiond-$store.log" >&2; die "decisiond ($store) exited during round $round"; }
    n=$((d1 - d0))
    ((n > 0)) || { cat "$out" >&2; die "no decisions in round $round ($store)"; }
    read -r round_rate srv round_srv_us round_usr_us round_sys_us round_rt round_snd round_redis_us < <(awk \
      -v n="$n" -v ns="$((end_ns - start_ns))" -v ut="$((ut1 - ut0))" -v st="$((st1 - st0))" -v r="$((r1 - r0))" \
      -v sends="$((s0 < 0 || s1 < 0 ? -1 : s1 - s0))" -v rt="$((rt1 - rt0))" -v hz="$hz" \
      'BEGIN { s = ns / 1e9; t = ut + st
        printf "%.0f %.0f %.2f %.2f %.2f %.3f %s %.2f\n", n / s, 100 * t / hz / s, 1e6 * t / hz / n, 1e6 * ut / hz / n,
          1e6 * st / hz / n, r / n, sends < 0 ? "-" : sprintf("%.3f", sends / n), 1e6 * rt / hz / n }')
    rate[$store,$round]=$round_rate
    srv_us[$store,$round]=$round_srv_us
    usr_us[$store,$round]=$round_usr_us
    sys_us[$store,$round]=$round_sys_us
    snd[$store,$round]=$round_snd
    rt[$store,$round]=$round_rt
    redis_us[$store,$round]=$round_redis_us
    p50[$store,$round]=$(to_us "$(awk '$1 == "50%" {print $2}' "$out")")
    p99[$store,$round]=$(to_us "$(awk '$1 == "99%" {print $2}' "$out")")
    unavailable=$((u1 - u0))
    total_unavailable=$((total_unavailable + unavailable))
    errors=$(wrk_errors "$out")
    ((bad1 - bad0 == 0)) || errors+="${errors:+; }not 2xx (decisiond's count): $((bad1 - bad0)), $(not_2xx_detail "$tmp/metrics-0.txt" "$tmp/metrics-1.txt")"
    awk -v x="${rt[$store,$round]}" 'BEGIN { exit !(x > 1) }' \
      && errors+="${errors:+; }${rt[$store,$round]} store round trips per decision (at most 1 by docs/cluster.md)"
    printf "$row_format" "$round" "$store" "${rate[$store,$round]}" "${p50[$store,$round]}" "${p99[$store,$round]}" \
      "$srv" "${srv_us[$store,$round]}" "${usr_us[$store,$round]}" "${sys_us[$store,$round]}" "${rt[$store,$round]}" \
      "${snd[$store,$round]}" "$unavailable" "${redis_us[$store,$round]}" "$wrk_cpu_busy" "$server_cpu_busy" "${errors:-none}"
    [[ -z "$errors" ]] || failures+=("round $round $store: $errors")
  done
done

# --- summary --------------------------------------------------------------------------

declare -A m_rate m_p50 m_p99 m_srv m_usr m_sys m_redis m_rt
echo
echo "summary (median of $ROUNDS rounds)"
printf '  %-8s  %9s  %7s  %7s  %10s  %6s  %6s  %6s  %12s\n' store "dec/s" p50_us p99_us srv_us/dec usr_us sys_us \
  rt/dec redis_us/dec
for store in "${STORES[@]}"; do
  m_rate[$store]=$(med_of rate "$store")
  m_p50[$store]=$(med_of p50 "$store")
  m_p99[$store]=$(med_of p99 "$store")
  m_srv[$store]=$(med_of srv_us "$store")
  m_usr[$store]=$(med_of usr_us "$store")
  m_sys[$store]=$(med_of sys_us "$store")
  m_redis[$store]=$(med_of redis_us "$store")
  m_rt[$store]=$(med_of rt "$store")
  printf '  %-8s  %9.0f  %7.0f  %7.0f  %10s  %6s  %6s  %6s  %12s\n' "$store" "${m_rate[$store]}" "${m_p50[$store]}" \
    "${m_p99[$store]}" "${m_srv[$store]}" "${m_usr[$store]}" "${m_sys[$store]}" "${m_rt[$store]}" "${m_redis[$store]}"
done
awk -v ce="${m_srv[cluster]}" -v ee="${m_srv[embedded]}" -v cr="${m_rate[cluster]}" -v er="${m_rate[embedded]}" \
  -v c50="${m_p50[cluster]}" -v e50="${m_p50[embedded]}" -v c99="${m_p99[cluster]}" -v e99="${m_p99[embedded]}" \
  -v redis="${m_redis[cluster]}" -v cu="${m_usr[cluster]}" -v eu="${m_usr[embedded]}" -v cs="${m_sys[cluster]}" \
  -v es="${m_sys[embedded]}" 'BEGIN {
    printf "  cluster/embedded: decisiond CPU per decision %.3f (the project goal is at most 1.25), decisions/s %.3f\n", ce / ee, cr / er
    printf "  cluster/embedded by part: user space %.3f (%.2f / %.2f us), kernel %.3f (%.2f / %.2f us)\n", cu / eu, cu, eu, cs / es, cs, es
    printf "  added by the store per decision: user space %+.2f us, kernel %+.2f us\n", cu - eu, cs - es
    printf "  cluster/embedded with Redis CPU counted: %.3f ((%.2f + %.2f) / %.2f us)\n", (ce + redis) / ee, ce, redis, ee
    printf "  added by the store: p50 %+.0f us, p99 %+.0f us\n", c50 - e50, c99 - e99 }'
echo "  decisions made without their capped ads (store unavailable), all rounds: $total_unavailable"
echo "  the idle decisiond (the other store's) over the rounds: $(awk -v t="$idle_ticks" -v hz="$hz" \
  -v ns="$measured_ns" 'BEGIN { printf "%.2f", 100 * t / hz / (ns / 1e9) }')% of a CPU, on decisiond's CPU"
# The client's own view of its round trips: the histogram's mean.
curl --noproxy '*' -s --max-time 5 "${admin_url[cluster]}/metrics" | awk '
  /^decisiond_redis_round_trip_seconds_sum/ { s += $NF } /^decisiond_redis_round_trip_seconds_count/ { n += $NF }
  END { if (n > 0) printf "  decisiond_redis_round_trip_seconds over the whole run (fill included): %d round trips, mean %.0f us\n", n, 1e6 * s / n }'
# Waits whose parse could not be kept (every kept intake in use): parsed a second time.
curl --noproxy '*' -s --max-time 5 "${admin_url[cluster]}/metrics" | awk '
  /^decisiond_caps_store_waits_parsed_again_total/ { a += $NF } /^decisiond_decisions_total/ { d += $NF }
  END { if (d > 0) printf "  decisions parsed again after their wait (no kept parse free), fill included: %d of %d (%.1f%%)\n", a, d, 100 * a / d }'

echo
echo "redis: INFO commandstats of the primaries over the whole run (fill included):"
for p in "${primary_ports[@]}"; do
  redis-cli -p "$p" INFO commandstats | tr -d '\r' |
    awk -F'[:,=]' -v port="$p" '/^cmdstat_(hgetall|fcall|function)/ {
      printf "  %s  %-18s calls %9d  usec_per_call %6.2f\n", port, $1, $3, $7 }'
done
echo "redis: commands per socket read on each primary over the whole run (INFO stats; fill included):"
for p in "${primary_ports[@]}"; do
  redis-cli -p "$p" INFO stats | tr -d '\r' | awk -F: -v port="$p" '
    /^total_commands_processed:/ { c = $2 } /^total_reads_processed:/ { r = $2 }
    END { if (r > 0) printf "  %s  %d commands in %d reads: %.2f per read\n", port, c, r, c / r }'
done
if [[ -n "$PROFILE" ]]; then
  mkdir -p "$PROFILE"
  echo
  echo "profiles: one more round per store, not counted above: perf record -e cpu-clock -g -F 2000 for" \
    "${PROFILE_SECONDS}s of a $((PROFILE_SECONDS + 2))s wrk run"
  for store in "${STORES[@]}"; do
    pid=${decisiond_pid[$store]}
    taskset -c "$wrk_cpu" wrk -t1 -c"$CONNECTIONS" -d"$((PROFILE_SECONDS + 2))s" --latency -s "$SCRIPT_DIR/decision.lua" \
      "${public_url[$store]}" "${lua_args[@]}" >"$tmp/profile-wrk-$store.txt" 2>&1 &
    wrk_pid=$!
    sleep 1
    scrape "$store" "$tmp/metrics-0.txt"
    read -r ut0 st0 <<<"$(process_user_sys_ticks "$pid")"
    perf record -e cpu-clock -F 2000 -g -p "$pid" -o "$PROFILE/$store.perf.data" -- sleep "$PROFILE_SECONDS" \
      >"$tmp/perf-$store.log" 2>&1 || die "perf record failed: $(tail -n 3 "$tmp/perf-$store.log" | tr '\n' ' ')"
    read -r ut1 st1 <<<"$(process_user_sys_ticks "$pid")"
    scrape "$store" "$tmp/metrics-1.txt"
    wait "$wrk_pid" || die "wrk failed during the profile of $store"
    wrk_pid=""
    read -r d0 _ <<<"$(store_counters "$tmp/metrics-0.txt")"
    read -r d1 _ <<<"$(store_counters "$tmp/metrics-1.txt")"
    awk -v store="$store" -v n="$((d1 - d0))" -v ut="$((ut1 - ut0))" -v st="$((st1 - st0))" -v hz="$hz" \
      -v f="$PROFILE/$store.perf.data" 'BEGIN { printf "  %-8s %s: %d decisions, %.2f us CPU per decision (user %.2f, kernel %.2f)\n",
        store, f, n, 1e6 * (ut + st) / hz / n, 1e6 * ut / hz / n, 1e6 * st / hz / n }'
  done
fi
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#failures[@]} > 0)); then
  echo >&2
  echo "cluster_load.sh: FAILED: errors during the rounds, so the figures above compare unlike work:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
