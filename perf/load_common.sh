# What perf/load.sh and the scripts it hands targets to (cluster_load.sh, events_sink_load.sh)
# share: sourced, never run. The caller sets LOAD_SCRIPT (its name, for messages) and defines
# die() first.

# SIGTERM, then SIGKILL if the process is still there after grace_tenths tenths of a second
# (decisiond drains for up to --drain-timeout, 5 s by default).
stop_process() {  # pid name [grace_tenths]
  local pid=$1 waited=0 grace=${3:-70}
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && ((waited < grace)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$LOAD_SCRIPT: $2 (pid $pid) ignored SIGTERM for $((grace / 10)) s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

# The kernel, the CPU model, the load before the run, and the tools (the caller's line).
print_machine() {  # tools
  echo "kernel: $(uname -srm)"
  echo "cpu:    $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
  echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) before the run"
  echo "tools:  $1"
}

# Sets allowed_cpus to the CPUs this shell may use, expanded from taskset's list ("0-3,6").
list_allowed_cpus() {
  local ranges range c
  allowed_cpus=()
  IFS=, read -ra ranges <<<"$(taskset -pc $$ | sed 's/.*: //')"
  for range in "${ranges[@]}"; do
    if [[ "$range" == *-* ]]; then
      for ((c = ${range%-*}; c <= ${range#*-}; c++)); do allowed_cpus+=("$c"); done
    else
      allowed_cpus+=("$range")
    fi
  done
}

# Sets wrk_cpu (the first allowed CPU), server_cpu (the second, or the first when there is
# one) and, for another program's processes (Redis, nats-server: name), extra_cpus (the
# CPUs left, or wrk's when none is) and extra_where, a phrase for the "cpus:" line.
assign_cpus() {  # name
  list_allowed_cpus
  wrk_cpu=${allowed_cpus[0]}
  server_cpu=${allowed_cpus[1]:-$wrk_cpu}
  if ((${#allowed_cpus[@]} > 2)); then
    extra_cpus=$(printf '%s\n' "${allowed_cpus[@]:2}" | paste -sd, -)
    extra_where="$1 on CPUs $extra_cpus"
  else
    extra_cpus=$wrk_cpu
    extra_where="$1 shares wrk's CPU $wrk_cpu (no CPU left on this machine)"
  fi
}

# SPLIT=1 of the scripts that give decisiond two CPUs: its reactor alone on the first
# (server_cpu), its other threads and io_uring workers on the second, with wrk (wrk_cpu);
# decisiond_cpus lists both for start_decisiond. Call after assign_cpus.
split_cpus() {
  ((${#allowed_cpus[@]} >= 2)) || die "SPLIT=1 needs 2 CPUs; this shell has ${allowed_cpus[*]}"
  # --pin gives the reactor the first CPU of decisiond's list: wrk takes the second.
  server_cpu=${allowed_cpus[0]}
  wrk_cpu=${allowed_cpus[1]}
  decisiond_cpus="$server_cpu,$wrk_cpu"
}

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

# "decisions lines non2xx" from a decisiond metrics page: decisions served, event lines
# written, public replies that were not 2xx.
counters() {  # file
  awk '/^decisiond_decisions_total\{/ { d += $NF }
       /^decisiond_events_written_total\{/ { l += $NF }
       /^decisiond_http_requests_total\{/ && index($0, "listener=\"public\"") && !index($0, "status=\"2") { bad += $NF }
       END { printf "%d %d %d\n", d, l, bad }' "$1"
}
# The metrics page of the decisiond named name (the caller's admin_url) into file.
scrape() {  # name file
  curl --noproxy '*' -s --max-time 5 -o "$2" "${admin_url[$1]}/metrics" || die "could not read ${admin_url[$1]}/metrics"
}

# Latencies as wrk prints them (812.00us, 1.23ms, 2.00s), in microseconds.
to_us() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; unit = v; sub(/^[0-9.]+/, "", unit)
    if (unit == "us") f = 1; else if (unit == "ms") f = 1e3; else if (unit == "s") f = 1e6
    else if (unit == "m") f = 6e7; else if (unit == "h") f = 3.6e9; else { print "nan"; exit }
    printf "%.0f", n * f
  }'
}
# CPU time a process has used, every thread included, in clock ticks (utime + stime).
process_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
# "busy total" ticks of one CPU since boot, from /proc/stat (idle and iowait are not busy).
cpu_ticks() { awk -v cpu="cpu$1" '$1 == cpu { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat; }
busy_pct() {  # "busy total" before, after
  awk -v a="$1" -v b="$2" 'BEGIN {
    split(a, x, " "); split(b, y, " "); d = y[2] - x[2]
    if (d <= 0) print "n/a"; else printf "%.0f", 100 * (y[1] - x[1]) / d }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The median over the rounds 1..$ROUNDS of table[key,round].
med_of() {  # table key
  local -n table=$1
  local r values=()
  for ((r = 1; r <= ROUNDS; r++)); do values+=("${table[$2,$r]}"); done
  median "${values[@]}"
}
# What wrk's output says went wrong: socket errors, replies of status 400 or more; empty: none.
wrk_errors() {  # output
  local errors non2xx
  errors=$(grep -m1 'Socket errors:' "$1" | sed 's/^[[:space:]]*Socket errors:[[:space:]]*/socket errors: /' || true)
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$1")
  [[ -z "$non2xx" ]] || errors+="${errors:+; }status >= 400 (wrk): $non2xx"
  echo "$errors"
}

# wrk on its CPU with a Lua script, $CONNECTIONS connections; the caller's wrk_pid names it
# while it runs (for the clean-up).
run_wrk_lua() {  # output duration script args...
  local out=$1 duration=$2 rc=0
  shift 2
  taskset -c "$wrk_cpu" wrk -t1 -c"$CONNECTIONS" -d"$duration" --latency -s "$@" >"$out" 2>&1 &
  wrk_pid=$!
  wait "$wrk_pid" || rc=$?
  wrk_pid=""
  ((rc == 0)) || { cat "$out" >&2; die "wrk failed (status $rc)"; }
}

# Starts $DECISIOND as name with --cores=1 --pin --seed=$SEED on $server_cpu (or on the CPUs
# $decisiond_cpus lists, when set: its reactor then takes the first), its listeners
# on free loopback ports, its log in $tmp/decisiond-<name>.log, none of the caller's
# DECISIOND_<FLAG> variables (they would set its flags) and the flags given; waits until its
# /healthz answers (10 s at most). The caller declares the associative arrays decisiond_pid,
# public_url (its /v1/decision) and admin_url.
start_decisiond() {  # name state_dir flags...
  local name=$1 state=$2 public_port admin_port variable
  shift 2
  local env_unset=()
  while IFS= read -r variable; do
    [[ "$variable" == DECISIOND_* ]] && env_unset+=(-u "$variable")
  done < <(compgen -e)
  next_free_port
  public_port=$port
  next_free_port
  admin_port=$port
  taskset -c "${decisiond_cpus:-$server_cpu}" env "${env_unset[@]}" "$DECISIOND" --cores=1 --pin --seed="$SEED" \
    --listen="127.0.0.1:$public_port" --admin-listen="127.0.0.1:$admin_port" --state-dir="$state" "$@" \
    >"$tmp/decisiond-$name.log" 2>&1 &
  decisiond_pid[$name]=$!
  public_url[$name]="http://127.0.0.1:$public_port/v1/decision"
  admin_url[$name]="http://127.0.0.1:$admin_port"
  for _ in $(seq 100); do
    kill -0 "${decisiond_pid[$name]}" 2>/dev/null \
      || { cat "$tmp/decisiond-$name.log" >&2; die "decisiond ($name) exited before serving; its log is above"; }
    curl --noproxy '*' -s -o /dev/null --max-time 1 "${admin_url[$name]}/healthz" && return 0
    sleep 0.1
  done
  cat "$tmp/decisiond-$name.log" >&2
  die "decisiond ($name) did not answer ${admin_url[$name]}/healthz within 10 s; its log is above"
}

# The lines of nginx's http block every load script's nginx shares: no access log, keep-alive
# connections held for the whole run, temporary files under $tmp. Into an unquoted heredoc.
nginx_http_basics() {
  cat <<CONF
  access_log off;
  server_tokens off;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  client_body_temp_path $tmp/nginx-temp/body;
  proxy_temp_path $tmp/nginx-temp/proxy;
  fastcgi_temp_path $tmp/nginx-temp/fastcgi;
  uwsgi_temp_path $tmp/nginx-temp/uwsgi;
  scgi_temp_path $tmp/nginx-temp/scgi;
CONF
}

# The settings every decision target of the helper scripts checks: the binary and the tools
# (arguments), ROUNDS, CONNECTIONS, SEED, USERS, and the load.sh variables that do not apply
# to target (a POST of DECISION_BODY, which loses its line breaks).
check_decision_settings() {  # target tools...
  local target=$1 tool
  shift
  [[ -x "$DECISIOND" ]] || die "no decisiond at '$DECISIOND': run \`make build\` first (or set DECISIOND)"
  for tool in "$@"; do
    command -v "$tool" >/dev/null || die "no $tool: run tools/install-deps"
  done
  [[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
  [[ "$CONNECTIONS" =~ ^[1-9][0-9]*$ ]] || die "CONNECTIONS must be a positive integer, not '$CONNECTIONS'"
  [[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be an unsigned integer, not '$SEED'"
  [[ "$USERS" =~ ^[1-9][0-9]{0,5}$ ]] || die "USERS must be an integer from 1 to 999999, not '$USERS'"
  [[ -z "${TARGET_PLANE:-}${TARGET_PATH:-}${TARGET_BODY_FILE:-}" ]] \
    || die "TARGET_PLANE, TARGET_PATH and TARGET_BODY_FILE do not apply to TARGET=$target"
  [[ "${TARGET_METHOD:-POST}" == POST ]] || die "TARGET=$target sends POST, not TARGET_METHOD=$TARGET_METHOD"
  DECISION_BODY=$(printf '%s' "$DECISION_BODY" | tr -d '\r\n')
}

# One body per user u1..u$USERS, DECISION_BODY with @USER@ replaced, into file.
write_bodies() {  # file
  DECISION_BODY="$DECISION_BODY" awk -v users="$USERS" 'BEGIN {
    for (i = 1; i <= users; i++) { b = ENVIRON["DECISION_BODY"]; gsub(/@USER@/, "u" i, b); print b } }' >"$1"
}
