#!/usr/bin/env bash
# Site export benchmark: `quire export --html` over the vendored corpora (Tests/Corpora: ~1,000
# Dendron notes, ~1,000 Hugo pages) and SampleVault, release build.
#
#   Benchmarks/site-export.sh
#   QUIRE=/path/to/quire RUNS=5 Benchmarks/site-export.sh
#
# Needs: /usr/bin/time (GNU). Each vault is copied once under $BENCH_DIR and made a vault with
# `quire init`; each run exports to a fresh folder. Prints a Markdown table for Docs/benchmarks.md
# (wall time median of RUNS, CPU time and peak memory of the last run).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
QUIRE=${QUIRE:-"$(cd "$repo" && swift build -c release --show-bin-path)/quire"}
BENCH_DIR=${BENCH_DIR:-/tmp/quire-site-bench}
RUNS=${RUNS:-5}
mkdir -p "$BENCH_DIR"

echo "| vault | notes | pages + attachments | wall (median of $RUNS) | CPU (user+sys) | peak memory | site size |"
echo "|---|---|---|---|---|---|---|"
for name in SampleVault Corpora/dendron-site Corpora/hugo-docs; do
    source="$repo/$name"
    [ "$name" = SampleVault ] || source="$repo/Tests/$name"
    vault="$BENCH_DIR/$(basename "$name")"
    if [ ! -d "$vault/.quire" ]; then
        rm -rf "$vault"
        cp -r "$source" "$vault"
        (cd "$vault" && "$QUIRE" init . >/dev/null)
    fi
    notes=$(find "$vault" -name '*.md' -not -path '*/.*' | wc -l)
    walls=()
    for _ in $(seq "$RUNS"); do
        rm -rf "$BENCH_DIR/site"
        /usr/bin/time -f '%e %U %S %M' -o "$BENCH_DIR/time" "$QUIRE" export --html "$BENCH_DIR/site" --vault "$vault" \
            >"$BENCH_DIR/out" 2>/dev/null
        read -r wall user sys peak <"$BENCH_DIR/time"
        walls+=("$wall")
    done
    median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    exported=$(head -1 "$BENCH_DIR/out" | sed -E 's/^exported ([0-9]+) pages? and ([0-9]+) attachments?.*/\1 + \2/')
    size=$(du -sh "$BENCH_DIR/site" | cut -f1)
    cpu=$(echo "$user + $sys" | bc)
    echo "| $(basename "$name") | $notes | $exported | ${median} s | ${cpu} s | $((peak / 1024)) MB | $size |"
done
