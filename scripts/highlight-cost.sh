#!/usr/bin/env bash
# What a syntax set costs a cold build: builds one generated corpus (N articles × vi/en, each
# with code blocks in seven languages, or in the five syntect knew without bat's (rust, json,
# sh, c, python) with FIVE=1) with two measured binaries, alternately, RUNS times
# each, the highlight cache removed before every run, and prints each binary's median wall
# time and median CPU time (user + system, steadier than wall time on a shared machine). Needs
# GNU time (Debian's `time`). Usage: scripts/highlight-cost.sh BEFORE AFTER [N=200] [RUNS=5]
set -euo pipefail
before=$1 after=$2 n=${3:-200} runs=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
site=$work/site
mkdir -p "$site/content"
cat > "$site/site.toml" <<'TOML'
base_url = "https://example.org"
default_language = "vi"
[languages.vi]
title = "Đo thật"
[languages.en]
title = "Measured"
TOML
for i in $(seq 1 "$n"); do
  mkdir -p "$site/content/a$i"
  for lang in vi en; do
    {
      printf -- '---\ntitle: Bài %s %s\ndate: 2025-01-01\n---\n' "$i" "$lang"
      printf 'Đoạn mở đầu %s về kết nối mạng và đo đạc.\n\n' "$i"
      printf '```rust\nfn f%s(x: u32) -> u32 {\n    // comment\n    x.wrapping_mul(%s) + "s".len() as u32\n}\n```\n\n' "$i" "$i"
      printf '```json\n{"id": %s, "ok": true, "tags": ["a", "b"], "v": null}\n```\n\n' "$i"
      printf '```sh\ncargo build --release && echo "$HOME/%s" # done\n```\n\n' "$i"
      printf '```c\nint f%s(void) { return 0x%x; } /* c */\n```\n\n' "$i" "$i"
      printf '```python\ndef f%s(x):\n    return [y * 2 for y in range(x) if y %% 3]\n```\n\n' "$i"
      if [ "${FIVE:-0}" != 1 ]; then
      printf '```ts\nexport const f%s = (x: number): string => `${x}`;\n```\n\n' "$i"
      printf '```toml\n[package]\nname = "a%s"\nversion = "0.1.0"\n```\n' "$i"
      fi
    } > "$site/content/a$i/index.$lang.md"
  done
done
declare -A wall cpu
for r in $(seq 1 "$runs"); do
  for which in before after; do
    bin=${!which}
    rm -rf "$site/.measured" "$work/out"
    /usr/bin/time -f '%e %U %S' -o "$work/time" "$bin" build --root "$site" --output "$work/out" >/dev/null 2>&1
    read -r e u s < "$work/time"
    wall[$which]+="$e "
    cpu[$which]+="$(echo "$u + $s" | bc) "
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for which in before after; do
  echo "$which: $runs cold builds of $((2 * n)) pages: median wall $(median "${wall[$which]}") s" \
    "(${wall[$which]}), median CPU $(median "${cpu[$which]}") s (${cpu[$which]})"
done
