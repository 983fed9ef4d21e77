# Shared by the README tests (sourced): a block of README.md between two markers, and the
# built decisiond on free loopback ports with a private state directory.

# Prints the fenced block between the lines "<!-- NAME:begin -->" and "<!-- NAME:end -->"
# of README.md, without its fences; fails when the markers or the block are missing.
readme_block() {
  local readme=$1 name=$2
  awk -v begin="<!-- $name:begin -->" -v end="<!-- $name:end -->" '
    $0 == begin { inside = 1; next }
    $0 == end { inside = 0; found = 1; next }
    inside && /^```/ { fence = !fence; next }
    inside && fence { print; lines++ }
    END { exit !(found && lines > 0) }' "$readme" ||
    { echo "README.md has no non-empty block between <!-- $name:begin --> and <!-- $name:end -->" >&2; return 1; }
}

# start_decisiond BINARY STATE_DIR [FLAG...]: serves on 127.0.0.1, the public port chosen
# here (--base-url must name it before start, so port 0 will not do; a taken port is
# retried), the admin port by the kernel. Sets api, admin (URLs), decisiond_pid and
# decisiond_stderr (the file its stderr goes to).
start_decisiond() {
  local binary=$1 state_dir=$2
  shift 2
  local name
  for name in $(compgen -e); do if [[ $name == DECISIOND_* ]]; then unset "$name"; fi; done
  local attempt port line
  decisiond_stderr="$state_dir.stderr"
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    "$binary" --listen="127.0.0.1:$port" --admin-listen=127.0.0.1:0 \
      --base-url="http://127.0.0.1:$port" --state-dir="$state_dir" --cores=2 "$@" \
      >/dev/null 2>"$decisiond_stderr" &
    decisiond_pid=$!
    for _ in $(seq 100); do
      line=$(grep -m1 ' msg="serving ' "$decisiond_stderr" || true)
      [[ -n $line ]] && break
      kill -0 "$decisiond_pid" 2>/dev/null || break
      sleep 0.1
    done
    if [[ -n $line ]]; then
      api="http://127.0.0.1:$port"
      admin="http://$(sed -E 's/.* admin=([0-9.]+:[0-9]+) .*/\1/' <<<"$line")"
      return 0
    fi
    if kill -0 "$decisiond_pid" 2>/dev/null; then
      kill "$decisiond_pid"; wait "$decisiond_pid" || true
      echo "decisiond did not start within 10 s:" >&2; cat "$decisiond_stderr" >&2; return 1
    fi
    wait "$decisiond_pid" || true
    grep -qi 'in use' "$decisiond_stderr" || { echo "decisiond did not start:" >&2; cat "$decisiond_stderr" >&2; return 1; }
  done
  echo "no free port found for decisiond" >&2
  return 1
}

# Stops the server with SIGTERM; fails unless it exits 0.
stop_decisiond() {
  kill -TERM "$decisiond_pid"
  local status=0
  wait "$decisiond_pid" || status=$?
  [[ $status -eq 0 ]] || { echo "decisiond exited $status:" >&2; cat "$decisiond_stderr" >&2; return 1; }
}
