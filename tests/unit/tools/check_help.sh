#!/bin/sh
# PROGRAM --help must exit 0 with its usage on standard output, as people expect of a tool.
program=$1
out=$("$program" --help 2>/dev/null)
status=$?
if [ "$status" -ne 0 ]; then
  echo "$program --help exited $status"
  exit 1
fi
case "$out" in
  *usage*|*Usage*) exit 0 ;;
esac
echo "$program --help printed no usage on standard output"
exit 1
