#!/usr/bin/env bash
# End-to-end throughput and latency of decisiond against nginx serving the same reply,
# each server pinned to one CPU and wrk pinned to another. It reports numbers only: no
# thresholds, no verdicts. Run from the repository root (`make bench` does).
#
# Environment:
#   DECISIOND     the binary                                 (build/decisiond)
#   ROUNDS        wrk runs per server, alternating the order (3)
#   DURATION      wrk -d of each run                         (10s)
#   CONNECTIONS   wrk -c                                     (64)
#   WARMUP        wrk -d of one uncounted run per server     (1s; 0 skips it)
#   TARGET_PLANE  which decisiond listener: admin or public  (admin)
#   TARGET_PATH   the request path                           (/healthz)
#   TARGET_METHOD the request method                         (GET)
#   TARGET_BODY_FILE  a request body                         (none)
#
# Why /healthz: its reply is fixed ("ok\n"), so decisiond and nginx send the same body
# and the comparison measures the servers' I/O and HTTP paths, nothing else.
#
# POST targets (TARGET_METHOD=POST TARGET_PLANE=public TARGET_PATH=/v1/decision
# TARGET_BODY_FILE=request.json) are planned but not built: the script stops with a
# message if asked. The design, so that adding them touches only this script:
#   - capture decisiond's reply with the same request (curl -X POST --data-binary @FILE
#     with Content-Type: application/json, Accept-Language and X-Decision-Version);
#   - write "$tmp/request.lua" setting wrk.method, wrk.body (the file's bytes, quoted
#     with Lua's long brackets) and those wrk.headers, and pass `-s "$tmp/request.lua"`
#     to every wrk run (the warm-up too);
#   - nginx's static handler answers POST with 405: add `error_page 405 =200 $uri;` to
#     the location so it serves the captured body with status 200.
# A decision reply varies from request to request (tracking URLs, selection), so the
# byte sizes printed before the rounds then match only roughly.
set -euo pipefail

DECISIOND=${DECISIOND:-build/decisiond}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
WARMUP=${WARMUP:-1s}
TARGET_PLANE=${TARGET_PLANE:-admin}
TARGET_PATH=${TARGET_PATH:-/healthz}
TARGET_METHOD=${TARGET_METHOD:-GET}
TARGET_BODY_FILE=${TARGET_BODY_FILE:-}
NGINX=/usr/sbin/nginx

die() {
  echo "load.sh: $*" >&2
  exit 1
}

[[ -x "$DECISIOND" ]] || die "no decisiond at '$DECISIOND': run \`make build\` first (or set DECISIOND)"
[[ -x "$NGINX" ]] || die "no $NGINX: run tools/install-deps (package nginx-light)"
for tool in wrk curl taskset; do
  command -v "$tool" >/dev/null || die "no $tool: run tools/install-deps"
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
[[ "$CONNECTIONS" =~ ^[1-9][0-9]*$ ]] || die "CONNECTIONS must be a positive integer, not '$CONNECTIONS'"
[[ "$TARGET_PATH" == /* ]] || die "TARGET_PATH must start with '/', not '$TARGET_PATH'"
case "$TARGET_PLANE" in
  admin | public) ;;
  *) die "TARGET_PLANE must be admin or public, not '$TARGET_PLANE'" ;;
esac
if [[ "$TARGET_METHOD" != GET || -n "$TARGET_BODY_FILE" ]]; then
  die "only GET targets are built yet (TARGET_METHOD=$TARGET_METHOD${TARGET_BODY_FILE:+, TARGET_BODY_FILE=$TARGET_BODY_FILE}); see the header of $0"
fi

# --- clean-up: every process started here, and the temp dir, on any exit -------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-load.XXXXXX")
decisiond_pid=""
nginx_pid=""
wrk_pid=""

stop_process() {  # pid name
  local pid=$1 waited=0
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  # decisiond drains for up to --drain-timeout (5 s); wait a little longer, then insist.
  while kill -0 "$pid" 2>/dev/null && ((waited < 70)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "load.sh: $2 (pid $pid) ignored SIGTERM for 7 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

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

echo "kernel: $(uname -srm)"
echo "cpu:    $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) before the run"
echo "tools:  $(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}'), $("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"

# The CPUs this shell may use, expanded from taskset's list ("0-3,6").
allowed_cpus=()
cpu_list=$(taskset -pc $$ | sed 's/.*: //')
IFS=, read -ra ranges <<<"$cpu_list"
for range in "${ranges[@]}"; do
  if [[ "$range" == *-* ]]; then
    for ((c = ${range%-*}; c <= ${range#*-}; c++)); do allowed_cpus+=("$c"); done
  else
    allowed_cpus+=("$range")
  fi
done
wrk_cpu=${allowed_cpus[0]}
if ((${#allowed_cpus[@]} >= 2)); then
  server_cpu=${allowed_cpus[1]}
  echo "cpus:   wrk on CPU $wrk_cpu, each server on CPU $server_cpu (one at a time)"
else
  server_cpu=$wrk_cpu
  echo "cpus:   only CPU $wrk_cpu is available: wrk and the server share it, so the figures" \
    "understate both servers"
fi

# --- free ports ---------------------------------------------------------------------

# Sets port to one below the kernel's ephemeral range (so wrk's own connections never
# take it) on which nothing listens and which this script has not handed out. A bind race
# remains; the server then fails to start and says so.
used_ports=" "
port=""
next_free_port() {
  for _ in $(seq 200); do
    port=$((20000 + RANDOM % 12000))
    [[ "$used_ports" == *" $port "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      used_ports+="$port "
      return 0
    fi
  done
  die "no free TCP port found on 127.0.0.1"
}

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
taskset -c "$server_cpu" "$DECISIOND" --cores=1 --pin \
  --listen="127.0.0.1:$public_port" --admin-listen="127.0.0.1:$admin_port" \
  --state-dir="$tmp/state" >"$tmp/decisiond.log" 2>&1 &
decisiond_pid=$!
wait_until_serving decisiond "$decisiond_pid" "http://127.0.0.1:$admin_port/healthz" "$tmp/decisiond.log"

if [[ "$TARGET_PLANE" == admin ]]; then target_port=$admin_port; else target_port=$public_port; fi
decisiond_url="http://127.0.0.1:$target_port$TARGET_PATH"

# --- nginx serving decisiond's exact reply body --------------------------------------

curl --noproxy '*' -s --max-time 5 -D "$tmp/decisiond.head" -o "$tmp/reply.body" "$decisiond_url" \
  || die "could not fetch $decisiond_url"
decisiond_status=$(head -n1 "$tmp/decisiond.head" | awk '{print $2}')
content_type=$(grep -i '^content-type:' "$tmp/decisiond.head" | head -n1 | sed 's/^[^:]*:[[:space:]]*//' | tr -d '\r')
[[ -n "$content_type" ]] || content_type=application/octet-stream
if [[ "$decisiond_status" != 2* ]]; then
  echo "note:   decisiond answers $TARGET_METHOD $TARGET_PATH with status $decisiond_status;" \
    "nginx will answer 200 with the same body"
fi

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
  access_log off;
  server_tokens off;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  client_body_temp_path $tmp/nginx-temp/body;
  proxy_temp_path $tmp/nginx-temp/proxy;
  fastcgi_temp_path $tmp/nginx-temp/fastcgi;
  uwsgi_temp_path $tmp/nginx-temp/uwsgi;
  scgi_temp_path $tmp/nginx-temp/scgi;
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
      alias $tmp/www/reply.body;
    }
  }
}
EOF
taskset -c "$server_cpu" "$NGINX" -p "$tmp/" -e "$tmp/nginx-error.log" -c "$tmp/nginx.conf" \
  -g 'daemon off;' >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
nginx_url="http://127.0.0.1:$nginx_port$TARGET_PATH"
wait_until_serving nginx "$nginx_pid" "$nginx_url" "$tmp/nginx-error.log"

curl --noproxy '*' -s --max-time 5 -D "$tmp/nginx.head" -o "$tmp/nginx.body" "$nginx_url" \
  || die "could not fetch $nginx_url"
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
echo "decisiond reply: $(reply_sizes "$tmp/decisiond.head" "$tmp/reply.body"); $(head -n1 "$tmp/decisiond.head" | tr -d '\r'); $(header_names "$tmp/decisiond.head")"
echo "nginx reply:     $(reply_sizes "$tmp/nginx.head" "$tmp/nginx.body"); $(head -n1 "$tmp/nginx.head" | tr -d '\r'); $(header_names "$tmp/nginx.head")"

# --- wrk ----------------------------------------------------------------------------

# wrk prints latencies as 812.00us, 1.23ms, 2.00s or 1.50m; in microseconds.
to_us() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; unit = v; sub(/^[0-9.]+/, "", unit)
    if (unit == "us") f = 1; else if (unit == "ms") f = 1e3; else if (unit == "s") f = 1e6
    else if (unit == "m") f = 6e7; else if (unit == "h") f = 3.6e9; else { print "nan"; exit }
    printf "%.0f", n * f
  }'
}

run_wrk() {  # url duration output
  taskset -c "$wrk_cpu" wrk -t1 -c"$CONNECTIONS" -d"$2" --latency "$1" >"$3" 2>&1 &
  wrk_pid=$!
  local rc=0
  wait "$wrk_pid" || rc=$?
  wrk_pid=""
  if ((rc != 0)); then
    cat "$3" >&2
    die "wrk failed (status $rc) against $1"
  fi
}

declare -A rate p50 p99
notes=()

# CPU time a process has used, every thread included, in clock ticks. The fields after
# the command name (which is in parentheses); utime and stime are the 14th and 15th.
process_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
# "busy total" ticks of one CPU since boot, from /proc/stat (idle and iowait are not busy).
cpu_ticks() { awk -v cpu="cpu$1" '$1 == cpu { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat; }
clock_ticks_per_s=$(getconf CLK_TCK)
busy_pct() {  # "busy total" before, after
  awk -v a="$1" -v b="$2" 'BEGIN {
    split(a, x, " "); split(b, y, " "); d = y[2] - x[2]
    if (d <= 0) print "n/a"; else printf "%.0f", 100 * (y[1] - x[1]) / d }'
}

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
  local r p50_raw p99_raw requests socket non2xx
  r=$(awk '/^Requests\/sec:/ {print $2}' "$out")
  p50_raw=$(awk '$1 == "50%" {print $2}' "$out")
  p99_raw=$(awk '$1 == "99%" {print $2}' "$out")
  [[ -n "$r" && -n "$p50_raw" && -n "$p99_raw" ]] || {
    cat "$out" >&2
    die "could not read wrk's output for $server"
  }
  requests=$(awk '/requests in/ {print $1}' "$out")
  socket=$(grep -m1 'Socket errors:' "$out" | sed 's/^[[:space:]]*Socket errors:[[:space:]]*//' || true)
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$out")
  # shellcheck disable=SC2034  # read through the nameref in values()
  rate[$server,$round]=$r
  p50[$server,$round]=$(to_us "$p50_raw")
  p99[$server,$round]=$(to_us "$p99_raw")
  local errors="${socket:+socket errors: $socket; }${non2xx:+non-2xx/3xx responses: $non2xx}"
  local shown=${errors:-none}
  printf '%5s  %-9s  %12s  %9s  %9s  %10s  %8s  %9s  %9s  %s\n' "$round" "$server" "$r" \
    "${p50[$server,$round]}" "${p99[$server,$round]}" "$requests" "$server_pct" \
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
  run_wrk "$decisiond_url" "$WARMUP" "$tmp/warmup-decisiond.txt"
  run_wrk "$nginx_url" "$WARMUP" "$tmp/warmup-nginx.txt"
fi
echo
echo "  srv%: the server process's CPU time over the run's wall time (100 = one CPU);"
echo "  cpuN%: how busy CPU N was over the run, by any process (wrk on $wrk_cpu, server on $server_cpu)"
printf '%5s  %-9s  %12s  %9s  %9s  %10s  %8s  %9s  %9s  %s\n' round server "requests/s" "p50_us" "p99_us" \
  requests "srv%" "cpu$wrk_cpu%" "cpu$server_cpu%" errors
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2 == 1)); then order=(decisiond nginx); else order=(nginx decisiond); fi
  for server in "${order[@]}"; do
    measure "$server" "$round"
  done
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
values() {  # array server
  local -n table=$1
  local r
  for ((r = 1; r <= ROUNDS; r++)); do echo "${table[$2,$r]}"; done
}

declare -A med_rate med_p50 med_p99
for server in decisiond nginx; do
  mapfile -t v < <(values rate "$server")
  med_rate[$server]=$(median "${v[@]}")
  mapfile -t v < <(values p50 "$server")
  med_p50[$server]=$(median "${v[@]}")
  mapfile -t v < <(values p99 "$server")
  med_p99[$server]=$(median "${v[@]}")
done

echo
echo "summary (median of $ROUNDS rounds)"
printf '  %-9s  %12s  %9s  %9s\n' server "requests/s" "p50_us" "p99_us"
for server in decisiond nginx; do
  printf '  %-9s  %12s  %9.0f  %9.0f\n' "$server" "${med_rate[$server]}" "${med_p50[$server]}" "${med_p99[$server]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.3f", a / b }'; }
echo "  decisiond/nginx: requests/s $(ratio "${med_rate[decisiond]}" "${med_rate[nginx]}")," \
  "p99 $(ratio "${med_p99[decisiond]}" "${med_p99[nginx]}")"
if ((${#notes[@]} > 0)); then
  echo
  echo "wrk reported errors:"
  printf '  %s\n' "${notes[@]}"
fi
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
