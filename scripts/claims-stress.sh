#!/usr/bin/env bash
# Claims under load: N quick-mode builds of the real blog in a row, each measuring every
# experiment again (--rerun), while another process keeps one core busy, with one
# deliberately false claim added (tcp-handshake: a new connection cheaper than a reused one,
# marked in both languages). Every build must fail with exactly that claim and nothing else.
# Prints one line per build: exit code, errors, rounds and extra runs for inconclusive
# claims, seconds, load average before. Not part of `make test`: it takes about two minutes
# a build on two cores.
# Usage: scripts/claims-stress.sh [N] [LOG_DIR]   (after `make release`; default 10 builds)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-10}
logs=${2:-$(mktemp -d)}
bin="$repo/target/release/measured"
site=$(mktemp -d)
mkdir -p "$logs"
# The copy measures with the repository's experiments (and their build), into a cache of its own.
sed "s|^\[experiments\]$|[experiments]\ndir = \"$repo/experiments\"|" "$repo/site.toml" > "$site/site.toml"
cp -r "$repo/content" "$site/content"
python3 - "$site" <<'PY'
import sys
root = sys.argv[1] + '/content/tcp-handshake/'
vi = open(root + 'index.vi.md').read()
open(root + 'index.vi.md', 'w').write(
    vi.replace('claims:\n', 'claims:\n  stress-false: tcp-handshake.kernel.ratio < 1\n', 1))
for f in ['index.vi.md', 'index.en.md']:
    s = open(root + f).read().rstrip('\n')
    open(root + f, 'w').write(s + '\n\nStress. {{ claim.stress-false }}\n')
PY
( while :; do :; done ) &
busy=$!
trap 'kill $busy; rm -rf "$site"' EXIT
for i in $(seq 1 "$n"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  start=$(date +%s.%N)
  MEASURED_QUICK=1 "$bin" build --root "$site" --rerun > "$logs/build-$i.out" 2> "$logs/build-$i.err"
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  errors=$(grep -c ": error: " "$logs/build-$i.err")
  false_claim=$(grep -c "claim \`stress-false\` fails" "$logs/build-$i.err")
  rounds=$(grep -c "inconclusive: measuring again" "$logs/build-$i.err")
  extra=$(grep -o "extra runs for inconclusive claims: .*" "$logs/build-$i.err" | tail -1)
  printf '%s\trc=%s\terrors=%s\tfalse_claim=%s\trounds=%s\t%s\tsecs=%.1f\tload_before=%s\n' \
    "$i" "$rc" "$errors" "$false_claim" "$rounds" "${extra:-no extra runs}" "$secs" "$load" \
    | tee -a "$logs/summary.tsv"
done
echo "logs in $logs"
