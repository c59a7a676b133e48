#!/usr/bin/env bash
# The scaling table (issue 35): every row at each vault size, quire beside its baseline measured
# in the same run, alternating (quire, baseline, quire, …) so that a passing load weighs on both.
#
#   Benchmarks/scale.sh [QUIRE]                       # sizes 1000 10000 100000 300000
#   SIZES="1000 10000" ROUNDS=5 Benchmarks/scale.sh .build/release/quire
#   VAULT_100000=/work/vaults/100k SIZES=100000 Benchmarks/scale.sh   # reuse a generated vault
#
# Vaults: Benchmarks/gen-vault N DIR --links 5, committed, kept under $BENCH_DIR (default
# /tmp/quire-scale) and reused; a vault named by VAULT_<N> is only read (cloned). Every row
# works in clones under a temporary folder removed at exit. Times are medians of ROUNDS runs
# (wall ms), memory the largest peak RSS seen (Benchmarks/timed.py); the first search after a
# pull is PULL_ROUNDS rounds (default 14), its median and maximum. The link rows run twice: with
# `watch: off` (every command walks the vault) and as a user gets them (`watch: auto`). Needs
# git, rg, python3, a C compiler for the floor, and `pip install tantivy` for its column (else
# "not run").
# Prints Markdown (one table per size); paste it into Docs/benchmarks.md.
set -eu
NAME=scale
. "$(dirname "$0")/common.sh"
HERE="$ROOT/Benchmarks"
SIZES=${SIZES:-"1000 10000 100000 300000"}
ROUNDS=${ROUNDS:-5}
PULL_ROUNDS=${PULL_ROUNDS:-14}
BENCH_DIR=${BENCH_DIR:-/tmp/quire-scale}
export QUIRE_NOW= TZ=UTC NO_PROGRESS=1
mkdir -p "$BENCH_DIR"
for tool in git rg python3; do command -v "$tool" >/dev/null || { echo "scale.sh: $tool is needed" >&2; exit 1; }; done

# timed LIST COMMAND…: appends "wall cpu rss_kb" of one run (in the current folder) to $WORK/LIST
timed() { list=$1; shift; python3 "$HERE/timed.py" "$@" >>"$WORK/$list"; }
column() { cut -d' ' -f"$1" "$WORK/$2"; }
median() { sort -n | awk '{v[NR] = $1} END {if (NR == 0) print 0; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
largest() { sort -n | tail -1; }
ms() { printf '%.0f' "$1"; }
mb() { awk -v k="$1" 'BEGIN {printf "%.0f", k * 1024 / 1e6}'; }
# figure LIST: "median ms, peak MB"
figure() { echo "$(ms "$(column 1 "$1" | median)") ms, $(mb "$(column 3 "$1" | largest)") MB"; }
times_of() { awk -v a="$(column 1 "$1" | median)" -v b="$(column 1 "$2" | median)" 'BEGIN {printf "%.2f×", a / (b > 0 ? b : 1)}'; }
row() { echo "| $1 | $(figure "$2") | $3 $(figure "$4") | $(times_of "$2" "$4") |"; }
reset() { for list in "$@"; do : >"$WORK/$list"; done; }
# pair ROUNDS QUIRE_COMMAND BASELINE_COMMAND: alternating runs into the lists q and b
pair() { n=$1; reset q b; i=0; while [ "$i" -lt "$n" ]; do timed q sh -c "$2"; timed b sh -c "$3"; i=$((i + 1)); done; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# edit_notes DIR COUNT WORD: appends a line to the first COUNT notes (sorted paths)
edit_notes() { (cd "$1" && git ls-files -z "*.md" | head -z -n "$2" | while IFS= read -r -d "" path; do echo "$3" >>"$path"; done); }
quiet_config() { mkdir -p "$1/.quire/local"; echo "watch: ${2:-off}" >"$1/.quire/local/config.yml"; }

# link_rows LABEL: backlinks of the busiest and a median target, then graph --json, each beside rg
link_rows() {
    for which in busiest median; do
        line=$( [ "$which" = busiest ] && head -1 "$WORK/targets" || tail -1 "$WORK/targets")
        target=$(echo "$line" | cut -f1); count=$(echo "$line" | cut -f2)
        patterns=$(echo "$line" | cut -f3- | tr '\t' '\n' | sed "s/'/'\\\\''/g; s/^/-e '/; s/\$/'/" | tr '\n' ' ')
        pair "$ROUNDS" "'$QUIRE' backlinks '$target' >/dev/null" "rg -l -F $patterns --glob '*.md' . >/dev/null"
        row "\`backlinks\`, $which note ($count links)$1" q "\`rg -l -F\` for its links" b
    done
    pair "$ROUNDS" "'$QUIRE' graph --json >/dev/null" "rg -o --no-filename '\\[\\[[^]]*\\]\\]|\\]\\([^)]*\\.md[^)]*\\)' --glob '*.md' . >/dev/null"
    row "\`graph --json\`$1" q "\`rg -o\` of every link" b
}

vault_of() {  # the committed vault of SIZE notes
    size=$1
    given=$(eval echo "\${VAULT_$size:-}")
    if [ -n "$given" ]; then echo "$given"; return; fi
    vault="$BENCH_DIR/vault-$size"
    if [ ! -d "$vault/.git" ] || [ -z "$(git -C "$vault" rev-parse -q --verify HEAD 2>/dev/null)" ]; then
        rm -rf "$vault"
        python3 "$HERE/gen-vault" "$size" "$vault" --links 5 >/dev/null
        (cd "$vault" && git add -A && git commit -qm "generated vault")
    fi
    echo "$vault"
}

echo "## Scaling: $SIZES notes ($(nproc) cores, $(date -u +%Y-%m-%d), quire $("$QUIRE" --version 2>/dev/null | head -1))"
for size in $SIZES; do
    source=$(vault_of "$size")
    rm -rf "$WORK/run"; mkdir -p "$WORK/run"
    cd "$WORK/run"
    # quire's device and another device share q.git; plain git works alone on g.git.
    git clone -q --bare "$source" q.git
    git clone -q --bare "$source" g.git
    git clone -q q.git device
    git clone -q g.git plain
    mb_notes=$(cd device && git ls-files -z '*.md' | xargs -0 cat | wc -c)
    (cd device && "$QUIRE" init . >/dev/null && quiet_config .)
    (cd device && "$QUIRE" index --rebuild >/dev/null && "$QUIRE" sync -q)
    git clone -q q.git other
    word=$(awk '$1 == "middling" {print $2}' "$source/.quire/local/bench-words" 2>/dev/null || echo "river")
    echo
    echo "### $(printf "%'d" "$size") notes ($(awk -v b="$mb_notes" 'BEGIN {printf "%.0f", b / 1e6}') MB of Markdown; load average at start $(load))"
    echo
    echo "| work | quire | baseline | ratio |"
    echo "| --- | ---: | ---: | ---: |"

    # Links: the busiest and a median target of quire's own graph, against rg for the links
    # that name them ([[Title…]], [[stem…]], (…stem.md)).
    cd "$WORK/run/device"
    "$QUIRE" graph --json >"$WORK/graph.json"
    python3 - "$WORK/graph.json" >"$WORK/targets" <<'PY'
import json, statistics, sys, urllib.parse, os
graph = json.load(open(sys.argv[1]))
edges = graph.get("edges") or graph.get("links") or []
counts = {}
for edge in edges:
    target = edge.get("target") or edge.get("to")
    if target:
        counts[target] = counts.get(target, 0) + 1
ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
middle = ranked[len(ranked) // 2]
for path, count in (ranked[0], middle):
    stem = os.path.splitext(os.path.basename(path))[0]
    title = ""
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("title:"):
            title = line[6:].strip().strip('"').strip("'")
            break
    patterns = [f"[[{title}]]", f"[[{title}|", f"[[{stem}]]", f"[[{stem}#", "/" + urllib.parse.quote(stem) + ".md)"]
    print(path + "\t" + str(count) + "\t" + "\t".join(patterns))
PY
    link_rows ""

    # Sync: one changed note, a no-op, and 10,000 changed notes (all of them below that).
    cd "$WORK/run"
    reset q b; i=0
    while [ "$i" -lt "$ROUNDS" ]; do
        edit_notes device 1 "one-note edit $i"; edit_notes plain 1 "one-note edit $i"; sync
        (cd device && timed q "$QUIRE" sync -q)
        (cd plain && timed b sh -c "git add -A && git commit -qm edit && git push -q origin HEAD")
        i=$((i + 1))
    done
    row "one changed note: \`sync\`" q "\`git add -A && git commit && git push\`" b
    (cd device && pair "$ROUNDS" "'$QUIRE' sync -q" "git status --porcelain >/dev/null && git fetch -q origin")
    row "no-op \`sync\`" q "\`git status && git fetch\`" b
    changed=$((size < 10000 ? size : 10000))
    edit_notes device "$changed" "bulk edit"; edit_notes plain "$changed" "bulk edit"; sync
    reset q b
    (cd device && timed q "$QUIRE" sync -q)
    (cd plain && timed b sh -c "git add -A && git commit -qm edit && git push -q origin HEAD")
    row "$(printf "%'d" "$changed") changed notes: \`sync\` (one run)" q "git" b

    # The language server: ready (initialize answered) and its resident memory then.
    cd "$WORK/run/device"
    reset q
    i=0
    while [ "$i" -lt "$ROUNDS" ]; do
        python3 - "$HERE" "$QUIRE" "$PWD" >>"$WORK/q" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import lsp
elapsed, client = lsp.ready(sys.argv[2], sys.argv[3])
rss = 0
for line in open(f"/proc/{client.process.pid}/status"):
    if line.startswith("VmHWM:"):
        rss = int(line.split()[1])
client.stop()
print(f"{elapsed * 1000:.1f} 0 {rss}")
PY
        i=$((i + 1))
    done
    echo "| \`lsp\` ready (initialize answered) | $(figure q) | — | $(awk -v r="$(column 3 q | largest)" -v b="$mb_notes" 'BEGIN {printf "%.2f× the corpus in memory", r * 1024 / b}') |"

    # Cold rebuild in CPU time beside tantivy, the floor and rg -c (Benchmarks/rebuild-cpu.sh).
    "$HERE/rebuild-cpu.sh" "$PWD" "$ROUNDS" "$QUIRE" >"$WORK/rebuild" 2>/dev/null || true
    reset q; timed q "$QUIRE" index --rebuild
    cpu_of() { grep -F "$1" "$WORK/rebuild" | head -1 | sed -n 's/.*, cpu \([0-9.]*\) ms.*/\1/p'; }
    quire_cpu=$(cpu_of "$QUIRE:"); rg_cpu=$(cpu_of "rg -c .:"); floor_cpu=$(cpu_of "floor: read"); tantivy_cpu=$(cpu_of "tantivy (")
    versus() { [ -n "$2" ] && awk -v a="$quire_cpu" -v b="$2" -v n="$1" 'BEGIN {printf "%s %.0f ms (%.2f×)", n, b, a / b}' || echo "$1 not run"; }
    echo "| cold \`index --rebuild\`, CPU | $(ms "${quire_cpu:-0}") ms CPU, $(mb "$(column 3 q | largest)") MB | $(versus tantivy "$tantivy_cpu"); $(versus "the floor" "$floor_cpu"); $(versus "\`rg -c .\`" "$rg_cpu") | |"

    # The first search after a pull of 1,000 changed notes, without and with the watcher.
    cd "$WORK/run"
    (cd device && "$QUIRE" watch stop >/dev/null; git pull -q --no-rebase >/dev/null 2>&1 || true; "$QUIRE" index >/dev/null)
    pulled=$((size < 1000 ? size : 1000))
    for mode in off watcher; do
        reset q b
        if [ "$mode" = watcher ]; then (cd device && "$QUIRE" watch start >/dev/null && "$QUIRE" index >/dev/null); fi
        i=0
        while [ "$i" -lt "$PULL_ROUNDS" ]; do
            (cd other && git pull -q --no-rebase)
            edit_notes other "$pulled" "pulled $mode $i"
            (cd other && git commit -qam "round $i" && git push -q origin HEAD)
            (cd device && git pull -q --no-rebase && sync && timed q "$QUIRE" search "$word" --paths && timed b rg -il "$word")
            i=$((i + 1))
        done
        label=$([ "$mode" = off ] && echo "no watcher" || echo "with \`quire watch\`")
        echo "| first \`search\` after \`git pull\` of $(printf "%'d" "$pulled") changed notes, $label ($PULL_ROUNDS rounds) | median $(ms "$(column 1 q | median)") ms, max $(ms "$(column 1 q | largest)") ms, $(mb "$(column 3 q | largest)") MB | \`rg -il\` median $(ms "$(column 1 b | median)") ms | $(times_of q b) |"
    done
    (cd device && "$QUIRE" watch stop >/dev/null)

    # Warm search: as a user gets it (the watcher a command starts in a big vault), then with
    # `watch: off`.
    cd "$WORK/run/device"
    for mode in auto off; do
        quiet_config . "$mode"
        "$QUIRE" search "$word" --paths >/dev/null; sleep 1; "$QUIRE" index >/dev/null
        pair "$((ROUNDS * 2))" "'$QUIRE' search '$word' --paths >/dev/null" "rg -il '$word' >/dev/null"
        running=$("$QUIRE" watch status --json | python3 -c 'import json,sys; print("watcher running" if json.load(sys.stdin)["running"] else "no watcher")')
        row "warm \`search\`, \`watch: $mode\` ($running)" q "\`rg -il\`" b
        if [ "$mode" = auto ]; then link_rows ", \`watch: auto\` ($running)"; fi
        "$QUIRE" watch stop >/dev/null
    done
    echo
    echo "Load average at the end: $(load)."
    cd "$WORK"
done
