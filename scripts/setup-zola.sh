#!/usr/bin/env bash
# Builds Zola from its source for `make bench` (Zola is neither a Debian package nor a crate):
# the tag ZOLA_TAG (v0.22.1, the release the benchmark was written against) of a git repository
# ZOLA_SRC (a clone or a mirror, e.g. one brought by a snapshot tool), else of
# https://github.com/getzola/zola, built with Zola's own release profile (LTO, one codegen
# unit) into target/bench-tools/zola-src and installed as target/bench-tools/zola, which the
# benchmark finds after BENCH_ZOLA and before PATH. When it cannot be built (no source, no
# network, a failed build) it says why and exits 0: the benchmark then skips Zola with a message.
# A binary already there of the same tag is kept.
set -uo pipefail
tag="${ZOLA_TAG:-v0.22.1}"
src="${ZOLA_SRC:-https://github.com/getzola/zola}"
here="$(cd "$(dirname "$0")/.." && pwd)"
tools="$here/target/bench-tools"
bin="$tools/zola"
work="$tools/zola-src"
skip() { echo "setup-zola: Zola not built ($1); make bench skips it. Set ZOLA_SRC to a Zola git repository, or BENCH_ZOLA to a zola binary." >&2; exit 0; }
if [ -x "$bin" ] && [ "$(cat "$tools/zola.tag" 2>/dev/null)" = "$tag" ]; then
  exit 0
fi
mkdir -p "$tools" || skip "cannot create $tools"
rm -rf "$work"
echo "setup-zola: building Zola $tag from $src (once; it takes a while: about an hour on a busy 2-core machine)" >&2
# Zola's docs/ (its website, with large screenshots) is not part of the build and is left out.
git clone --quiet --no-checkout "$src" "$work" || skip "git clone of $src failed"
git -C "$work" -c advice.detachedHead=false checkout --quiet "$tag" -- . ':(exclude)docs' \
  || skip "no tag $tag in $src"
CARGO_TARGET_DIR="$tools/zola-target" cargo build --quiet --release --locked \
  --manifest-path "$work/Cargo.toml" || skip "cargo build failed"
cp "$tools/zola-target/release/zola" "$bin" && echo "$tag" > "$tools/zola.tag" || skip "cannot install $bin"
echo "setup-zola: $("$bin" --version) in $bin" >&2
