#!/usr/bin/env bash
# Link benchmark: backlink look-ups in process, and the link commands end to end, on a
# generated vault with links (Benchmarks/gen-vault N DIR --links 5).
#
#   Benchmarks/links.sh                  # sizes 10000 100000, release build of quire
#   SIZES="100000" QUIRE=/path/to/quire Benchmarks/links.sh
#
# What quire must provide:
#   quire index --rebuild          rebuild the catalog from scratch (links are part of it)
#   quire index --bench-links      hidden: LinkBenchmark.run(catalog): backlinks(of:) for 200
#                                  notes spread over the vault, 10 rounds, then the busiest notes
#   quire backlinks / links / list links-to: / graph --json    warm, end to end
# Prints a Markdown table per size; copy it to Docs/benchmarks.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
QUIRE=${QUIRE:-"$(cd "$repo" && swift build -c release --show-bin-path)/quire"}
SIZES=${SIZES:-"10000 100000"}
BENCH_DIR=${BENCH_DIR:-/tmp/quire-links-bench}
LINKS=${LINKS:-5}

[ -x "$QUIRE" ] || { echo "links.sh: no quire binary at $QUIRE (swift build -c release)" >&2; exit 1; }
mkdir -p "$BENCH_DIR"

# wall milliseconds of one run of a command (output discarded)
millis() { local start end; start=$(date +%s%N); "$@" >/dev/null 2>&1; end=$(date +%s%N); echo $(( (end - start) / 1000000 )); }

for size in $SIZES; do
    vault="$BENCH_DIR/$size"
    [ -d "$vault" ] || python3 "$here/gen-vault" "$size" "$vault" --links "$LINKS" >/dev/null
    cd "$vault"
    rebuild=$(millis "$QUIRE" index --rebuild)
    bench=$("$QUIRE" index --bench-links)
    busiest=$(echo "$bench" | awk '/busiest/ {print $NF}' | head -1 | tr -d '()')
    some=$(echo "$bench" | awk '/busiest/ {print $NF}' | tail -1 | tr -d '()')
    total_links=$(grep -rhoE '\[\[[^]]*\]\]|\]\([^)]*\.md[^)]*\)' --include='*.md' . | wc -l)
    echo "### $size notes, $total_links links"
    echo
    echo "| measure | figure |"
    echo "| --- | ---: |"
    echo "| cold \`index --rebuild\` | $rebuild ms |"
    echo "| in-process \`backlinks(of:)\` | $(echo "$bench" | head -1 | sed 's/^backlinks: //') |"
    echo "$bench" | awk '/busiest/ {printf "| in-process, a busiest note | %s backlinks in %s ms |\n", $2, $5}'
    echo "| warm \`quire backlinks\` (busiest note) | $(millis "$QUIRE" backlinks "$busiest") ms |"
    echo "| warm \`quire links\` | $(millis "$QUIRE" links "$some") ms |"
    echo "| warm \`quire list links-to:NOTE --paths\` | $(millis "$QUIRE" list "links-to:$busiest" --paths) ms |"
    echo "| warm \`quire list broken-links:true --paths\` (whole graph) | $(millis "$QUIRE" list broken-links:true --paths) ms |"
    echo "| warm \`quire graph --json\` | $(millis "$QUIRE" graph --json) ms |"
    echo
    cd - >/dev/null
done
