#!/usr/bin/env bash
# readme.tour: the README's "60-second tour", run as written against the built server, and
# what it promises checked in its output: the decision, the impression answered 204 twice
# and counted once, the click's 302 with a Location, the VAST document behind the tag URL,
# the explain. Only the tour's first line, the addresses, is replaced with the test's own.
#
# usage: tour_test.sh DECISIOND_BINARY README_MD
set -euo pipefail
binary=$1 readme=$2
. "$(dirname "${BASH_SOURCE[0]}")/readme_server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-readme-tour.XXXXXX")
trap 'kill "${decisiond_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/tour" "$work/state"

readme_block "$readme" tour >"$work/tour.readme.sh"
address_lines=$(grep -c '^api=http://[^ ]* admin=http://[^ ]*$' "$work/tour.readme.sh" || true)
[[ $address_lines -eq 1 ]] ||
  { echo "FAIL: the tour should set api= and admin= on one line, once; found $address_lines such lines" >&2; exit 1; }

start_decisiond "$binary" "$work/state"
sed "s#^api=http://[^ ]* admin=http://[^ ]*\$#api=$api admin=$admin#" "$work/tour.readme.sh" >"$work/tour.sh"

status=0
(cd "$work/tour" && bash -euo pipefail "$work/tour.sh") >"$work/out" 2>&1 || status=$?
echo "--- the tour's output (exit status $status):"
cat "$work/out"
echo "---"

failures=0
expect() {  # expect WHAT COMMAND...: the command must succeed
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
sum_metric() {  # sum_metric FILE NAME [LABEL]: the sum of the samples of NAME (with LABEL)
  awk -v name="$2" -v label="${3:-}" '
    { split($1, parts, "{") }
    parts[1] == name && index($1, label) { sum += $2 }
    END { print sum + 0 }' "$1"
}

expect "the tour exits 0" test "$status" -eq 0
expect "the decision serves two creatives" \
  test "$(jq '.data[0].creatives | length' "$work/tour/decision.json" 2>/dev/null)" = 2
expect "the decision is printed" grep -q '"ad": "ad_' "$work/out"
expect "both impression calls answer 204" test "$(grep -cx 204 "$work/out")" -eq 2
expect "the tour's metrics show the impression counted once" \
  test "$(sum_metric "$work/out" decisiond_impressions_counted_total)" -eq 1
expect "the tour's metrics show the second call as a duplicate" \
  test "$(sum_metric "$work/out" decisiond_impressions_duplicate_total)" -eq 1
expect "the click answers 302 with a Location" grep -Eqx '302 https?://[^ ]+' "$work/out"
expect "the video decision serves one ad per delivery" \
  test "$(jq -r '[.data[0].creatives[].delivery] | sort | join(",")' "$work/tour/video.json" 2>/dev/null)" = \
  json,vast_tag,vast_xml
expect "the tag URL returns a VAST 4.2 document" \
  grep -q '^<VAST xmlns="http://www.iab.com/VAST" version="4.2">' "$work/out"
expect "the explain shows a served candidate" grep -q '"outcome":"served","rule":null' "$work/out"
expect "the explain names the rule of an excluded candidate" \
  grep -Eq '"outcome":"excluded","rule":"[a-z_]+"' "$work/out"

curl -s "$admin/metrics" >"$work/metrics"
expect "the server counted one impression" test "$(sum_metric "$work/metrics" decisiond_impressions_counted_total)" -eq 1
expect "the server saw one duplicate" test "$(sum_metric "$work/metrics" decisiond_impressions_duplicate_total)" -eq 1
expect "the server saw one click" \
  test "$(sum_metric "$work/metrics" decisiond_tracking_calls_total 'kind="click"')" -eq 1
expect "the server stops cleanly" stop_decisiond

[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
echo "readme.tour: every promise of the tour holds"
