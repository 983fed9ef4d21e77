#!/usr/bin/env bash
# readme.catalog: the README's "catalog by example" loads (decisiond refuses a catalog
# with any error at start, exit 2) and serves what its notes say: the native ad to a
# request whose geo ids include France, in French when asked, and nothing native without
# them; the video ad as a signed VAST tag.
#
# usage: catalog_test.sh DECISIOND_BINARY README_MD
set -euo pipefail
binary=$1 readme=$2
. "$(dirname "${BASH_SOURCE[0]}")/readme_server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/decisiond-readme-catalog.XXXXXX")
trap 'kill "${decisiond_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/state"

readme_block "$readme" catalog >"$work/catalog.json"
revision=$(jq -r .revision "$work/catalog.json")
start_decisiond "$binary" "$work/state" --catalog="$work/catalog.json"

failures=0
expect() {  # expect WHAT COMMAND...: the command must succeed
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
decide() {  # decide PLACEMENT_JSON: the body of the decision reply, in French if possible
  curl -s "$api/v1/decision" -H 'Content-Type: application/json' -H 'X-Decision-Version: 2025-11-01' \
    -H 'Accept-Language: fr' -d "{\"placements\":[$1],\"user\":{\"id\":\"reader-1\"}}"
}

expect "the server serves the README's catalog ($revision)" \
  grep -q " msg=\"serving .* catalog=$revision\"\$" "$decisiond_stderr"
native=$(decide '{"key":"home_top","format":"native","targeting":{"geo":[3017382]}}')
expect "a request from France gets the native ad" \
  test "$(jq -r '[.data[0].creatives[].metadata.adId] | join(",")' <<<"$native")" = ad_1001
expect "in French" grep -q '"value":"Lisbonne dès 49 €"' <<<"$native"
expect "with its custom event" \
  test "$(jq -r '.data[0].creatives[0].tracking.custom[0].key' <<<"$native")" = add_to_cart
elsewhere=$(decide '{"key":"home_top","format":"native","targeting":{"geo":[2635167]}}')
expect "a request from elsewhere gets no native ad" \
  test "$(jq '.data[0].creatives | length' <<<"$elsewhere")" = 0
video=$(decide '{"key":"home_top","format":"video"}')
expect "a video request gets the video ad as a VAST tag" \
  test "$(jq -r '.data[0].creatives[0] | "\(.metadata.adId) \(.delivery)"' <<<"$video")" = "ad_1002 vast_tag"
tag=$(jq -r '.data[0].creatives[0].vast.tagUrl' <<<"$video")
expect "its tag URL returns the VAST document" grep -q '<VAST xmlns="http://www.iab.com/VAST" version="4.2">' \
  <(curl -s "$tag")
expect "the server stops cleanly" stop_decisiond

[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
echo "readme.catalog: the README's catalog loads and serves as described"
