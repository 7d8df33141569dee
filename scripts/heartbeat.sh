#!/usr/bin/env bash
# Runs a command; when stderr is not a terminal (a CI log, `make site > log`), prints a line
# every 20 s while it runs, so a long compile step that prints nothing (rustc on one big
# crate) still shows progress. Exits with the command's status.
set -u
if [ -t 2 ]; then
  exec "$@"
fi
"$@" &
pid=$!
start=$(date +%s)
(
  while sleep 20; do
    kill -0 "$pid" 2>/dev/null || exit 0
    echo "still running: $1 ($(( $(date +%s) - start ))s so far)" >&2
  done
) &
beat=$!
wait "$pid"
status=$?
kill "$beat" 2>/dev/null
wait "$beat" 2>/dev/null
exit "$status"
