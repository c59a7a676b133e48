#!/usr/bin/env bash
# Search on real-shaped vaults with a .gitignore, beside the generated ones (issue 15): the
# vendored corpora (Tests/Corpora: the Dendron site's vault, Hugo's documentation) copied into a
# git vault with an Obsidian-style .gitignore, every note committed; warm `quire search` (no
# watcher) against `rg -il` on the same files, side by side in one run.
#
#   Benchmarks/real-vault.sh                     # release build of quire
#   QUIRE=/path/to/quire RUNS=20 Benchmarks/real-vault.sh
#
# Needs: hyperfine, rg, git, python3. Prints a Markdown table; copy it to Docs/benchmarks.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
QUIRE=${QUIRE:-"$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/quire"}
RUNS=${RUNS:-15}
BENCH_DIR=${BENCH_DIR:-/tmp/quire-bench-real}
for tool in hyperfine rg git python3; do
    command -v "$tool" >/dev/null || { echo "real-vault.sh: $tool is needed" >&2; exit 1; }
done
[ -x "$QUIRE" ] || { echo "real-vault.sh: no quire binary at $QUIRE (make release)" >&2; exit 1; }
mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"]*1000)' "$1"; }

echo "| vault | notes | word | quire search | rg -il | ratio |"
echo "|---|---|---|---|---|---|"
# The third vault is both corpora three times over (about 6,000 notes, the size of the real
# Obsidian vault issue 14 names), each copy in a folder of its own.
for corpus in dendron-site hugo-docs both-x3; do
    vault="$BENCH_DIR/$corpus"
    rm -rf "$vault"
    mkdir -p "$vault"
    if [ "$corpus" = both-x3 ]; then
        for copy in 1 2 3; do
            for part in dendron-site hugo-docs; do
                mkdir -p "$vault/$part-$copy"
                cp -R "$repo/Tests/Corpora/$part/." "$vault/$part-$copy/"
            done
        done
    else
        cp -R "$repo/Tests/Corpora/$corpus/." "$vault/"
    fi
    (
        cd "$vault"
        "$QUIRE" init . >/dev/null
        mkdir -p .obsidian .trash
        echo '{}' > .obsidian/workspace.json
        printf '%s\n' '.obsidian/workspace*.json' '.trash/' '*.tmp' 'Archive/private/' '.DS_Store' >> .gitignore
        git init -q -b main . 2>/dev/null || true
        git -c user.name=bench -c user.email=bench@example.invalid add -A
        git -c user.name=bench -c user.email=bench@example.invalid commit -qm corpus
        "$QUIRE" index >/dev/null
    )
    notes=$(cd "$vault" && git ls-files '*.md' | wc -l)
    # A word that appears in a few percent of the notes, as a search a person makes.
    word=$(cd "$vault" && python3 - <<'PY'
import collections, re, subprocess
files = subprocess.run(["git", "ls-files", "*.md"], capture_output=True, text=True).stdout.split()
counts = collections.Counter()
for f in files:
    counts.update(set(w.lower() for w in re.findall(r"[A-Za-z]{6,}", open(f, errors="ignore").read())))
target = max(1, len(files) // 30)
print(min(counts, key=lambda w: (abs(counts[w] - target), w)))
PY
)
    out="$BENCH_DIR/results-$corpus"
    mkdir -p "$out"
    (
        cd "$vault"
        sleep 0.2  # the first command's caches are written; stamps younger than 50 ms are not trusted
        "$QUIRE" search "$word" --paths >/dev/null
        hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$out/quire.json" "$QUIRE search $word --paths" >&2
        hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$out/rg.json" "rg -il $word" >&2
    )
    q=$(mean "$out/quire.json"); r=$(mean "$out/rg.json")
    python3 -c "import sys; q,r=float(sys.argv[1]),float(sys.argv[2]); print(f'| {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {q:.1f} ms | {r:.1f} ms | {q/r:.2f}× |')" \
        "$q" "$r" "$corpus" "$notes" "$word"
done
