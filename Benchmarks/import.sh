#!/bin/sh
# Import/export benchmark (issue 19): `quire import` of N journal entries (an array of objects
# with title, body of ~150 words, tags, createdAt, updatedAt, project, mood, draft and one extra
# key) into an empty vault, the same file again (every entry a duplicate), and `quire export
# --json` of the result. Best of RUNS runs each, on fresh vaults.
# usage: Benchmarks/import.sh [QUIRE] [N=1000] [RUNS=5]
# Prints a Markdown table (paste it into Docs/benchmarks.md).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUIRE=$(cd "$(dirname "${1:-$ROOT/.build/release/quire}")" && pwd)/$(basename "${1:-quire}")
N=${2:-1000}
RUNS=${3:-5}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/quire-import-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export QUIRE_DEVICE=bench NO_PROGRESS=1
[ -x "$QUIRE" ] || { echo "build quire first: make release" >&2; exit 1; }

now_ms() { date +%s%3N; }

python3 - "$N" "$WORK/entries.json" <<'PY'
import json, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(19)
words = ["rain", "coffee", "walk", "café", "meeting", "garden", "book", "train", "idea", "日記", "tired", "sun"]
entries = []
for i in range(n):
    body = " ".join(rng.choice(words) for _ in range(150))
    entries.append({"title": f"Day {i} {rng.choice(words)}", "body": body + "\n",
                    "tags": rng.sample(["life", "work", "Travel", "health", "#ideas"], 2),
                    "createdAt": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T08:{i % 60:02d}:00+01:00",
                    "updatedAt": 1704067200000 + i * 60000, "project": rng.choice(["Home", "Job", None]),
                    "mood": 1 + i % 5, "draft": i % 7 == 0, "weather": {"sky": rng.choice(["grey", "blue"])}})
json.dump(entries, open(path, "w"), ensure_ascii=False)
PY

best_import=""; best_again=""; best_export=""
i=0
while [ $i -lt "$RUNS" ]; do
    vault="$WORK/vault-$i"
    "$QUIRE" init "$vault" >/dev/null
    start=$(now_ms); "$QUIRE" --vault "$vault" import "$WORK/entries.json" >/dev/null; end=$(now_ms)
    t=$((end - start)); if [ -z "$best_import" ] || [ "$t" -lt "$best_import" ]; then best_import=$t; fi
    start=$(now_ms); "$QUIRE" --vault "$vault" import "$WORK/entries.json" >/dev/null; end=$(now_ms)
    t=$((end - start)); if [ -z "$best_again" ] || [ "$t" -lt "$best_again" ]; then best_again=$t; fi
    start=$(now_ms); "$QUIRE" --vault "$vault" export --json "$WORK/export.json" >/dev/null; end=$(now_ms)
    t=$((end - start)); if [ -z "$best_export" ] || [ "$t" -lt "$best_export" ]; then best_export=$t; fi
    i=$((i + 1))
done
count=$(find "$WORK/vault-0" -name '*.md' -not -path '*/.quire/*' | wc -l)

echo "| $N journal entries, best of $RUNS | ms |"
echo "| --- | ---: |"
echo "| \`quire import entries.json\` into an empty vault ($count notes written) | $best_import |"
echo "| the same file again (all duplicates) | $best_again |"
echo "| \`quire export --json FILE\` of that vault | $best_export |"
