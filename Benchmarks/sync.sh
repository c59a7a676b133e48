#!/bin/sh
# Sync benchmark (issues 4 and 35), one run on one machine, side by side with the git CLI:
#   1. commit + push of N changed notes: `quire sync` vs `git add -A && git commit && git push`
#   2. a no-op `quire sync` on a big vault vs `git status` + `git fetch`
#   3. resolving M notes edited on both sides (one `quire sync` that merges them)
#   4. on the big vault, ROUNDS alternating rounds: one changed note synced vs `git add -A &&
#      git commit && git push`, then a no-op sync vs `git status && git fetch` (median and max)
#   5. on the big vault, the peak RSS of a sync of N changed notes vs the git CLI's
# usage: Benchmarks/sync.sh [QUIRE] [N=10000] [BIG=100000] [M=1000] [ROUNDS=7]
# Prints a Markdown table (paste it into Docs/benchmarks.md).
set -eu
NAME=sync
. "$(dirname "$0")/common.sh"
N=${2:-10000}
BIG=${3:-100000}
M=${4:-1000}
ROUNDS=${5:-7}

touch_all() {  # changes every note's body (as an editor would), keeping front matter
    find "$1" -name '*.md' -not -path '*/.git/*' -not -path '*/.quire/*' -print0 | xargs -0 sed -i '$a edited for the benchmark'
}

gen() { python3 "$ROOT/Benchmarks/gen-vault" "$1" "$2" >/dev/null; }

echo "## quire sync vs the git CLI ($(nproc) cores, $(date -u +%Y-%m-%d), load average at start $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| measurement | quire | git CLI | ratio | target |"
echo "|---|---|---|---|---|"

# 1. commit + push of N changed notes
gen "$N" "$WORK/base"
git init -q --bare "$WORK/q.git"; git init -q --bare "$WORK/g.git"
cp -R "$WORK/base" "$WORK/q"; cp -R "$WORK/base" "$WORK/g"
( cd "$WORK/q" && "$QUIRE" remote "$WORK/q.git" >/dev/null && "$QUIRE" sync >/dev/null )
( cd "$WORK/g" && git add -A && git commit -qm base && git push -q "$WORK/g.git" HEAD:refs/heads/main )
touch_all "$WORK/q"; touch_all "$WORK/g"
# The edits were saved before the sync, as an editor's would be: flush them now, so that neither
# timed command pays for writing back the other copy's 25 MB of edits (the file system is shared).
sync
tq=$(cd "$WORK/q" && time_ms "$QUIRE" sync)
tg=$(cd "$WORK/g" && time_ms sh -c "git add -A && git commit -qm edit && git push -q '$WORK/g.git' HEAD:refs/heads/main")
echo "| commit + push $N changed notes | ${tq} ms | ${tg} ms | $(ratio "$tq" "$tg")× | ≤ 1.5× |"

# 2. no-op sync on BIG notes
gen "$BIG" "$WORK/big"
git init -q --bare "$WORK/big.git"
( cd "$WORK/big" && "$QUIRE" remote "$WORK/big.git" >/dev/null && "$QUIRE" sync >/dev/null )
( cd "$WORK/big" && git status >/dev/null )
tq=$(cd "$WORK/big" && best_of 3 "$QUIRE" sync)
tg=$(cd "$WORK/big" && best_of 3 sh -c "git status --porcelain >/dev/null && git fetch -q origin")
echo "| no-op sync, $BIG notes | ${tq} ms | ${tg} ms (status + fetch) | $(ratio "$tq" "$tg")× | ≤ 2× |"

# 3. M notes edited on both sides
gen "$M" "$WORK/c"
git init -q --bare "$WORK/c.git"
( cd "$WORK/c" && "$QUIRE" remote "$WORK/c.git" >/dev/null && "$QUIRE" sync >/dev/null )
"$QUIRE" clone "$WORK/c.git" "$WORK/d" >/dev/null
find "$WORK/c" -name '*.md' -not -path '*/.quire/*' -print0 | xargs -0 sed -i '1a seenOnLaptop: true'
find "$WORK/d" -name '*.md' -not -path '*/.quire/*' -print0 | xargs -0 sed -i '$a a line from the desktop'
( cd "$WORK/c" && QUIRE_DEVICE=laptop "$QUIRE" sync >/dev/null )
sync  # the edits are on disk before the timed sync, as above
# One desktop sync: commits its M edits, merges the laptop's M edits note by note, pushes.
start=$(now_ms); ( cd "$WORK/d" && QUIRE_DEVICE=desktop "$QUIRE" sync >/dev/null ); end=$(now_ms)
merged=$(cd "$WORK/d" && git log -1 --format=%P | wc -w)
echo "| resolve $M notes edited on both sides | $((end - start)) ms | — | — | < 5000 ms |"
[ "$merged" -eq 2 ] || echo "warning: the last sync made no merge commit" >&2
# 4. one changed note and a no-op on BIG notes, alternating with the git CLI on a copy
cp -R "$WORK/big" "$WORK/bigg"
git clone -q --bare "$WORK/big.git" "$WORK/bigg.git"
( cd "$WORK/bigg" && git remote set-url origin "$WORK/bigg.git" && git fetch -q origin && git status >/dev/null )
: >"$WORK/one"; : >"$WORK/noop"
i=0
for f in $(cd "$WORK/big" && find Inbox -name '*.md' | sort | head -n "$ROUNDS"); do
    echo "round $i" >>"$WORK/big/$f"; echo "round $i" >>"$WORK/bigg/$f"; sync
    tq=$(cd "$WORK/big" && time_ms "$QUIRE" sync)
    tg=$(cd "$WORK/bigg" && time_ms sh -c "git add -A && git commit -qm edit && git push -q origin HEAD:refs/heads/main")
    echo "$tq $tg" >>"$WORK/one"
    tq=$(cd "$WORK/big" && time_ms "$QUIRE" sync)
    tg=$(cd "$WORK/bigg" && time_ms sh -c "git status --porcelain >/dev/null && git fetch -q origin")
    echo "$tq $tg" >>"$WORK/noop"
    i=$((i + 1))
done
summary() {  # median and max of each column, and the ratio of the medians
    python3 -c "
import statistics as s, sys
rows = [tuple(map(int, l.split())) for l in open('$1') if l.strip()]
q, g = [r[0] for r in rows], [r[1] for r in rows]
print(f'| {sys.argv[1]} | {s.median(q):.0f} ms (max {max(q)}) | {s.median(g):.0f} ms (max {max(g)}) | {s.median(q) / max(s.median(g), 1):.2f}× | {sys.argv[2]} |')
" "$2" "$3"
}
summary "$WORK/one" "one changed note, $BIG notes, median of $ROUNDS ($(cut -d' ' -f1 /proc/loadavg))" "≤ 1.2×"
summary "$WORK/noop" "no-op sync, $BIG notes, median of $ROUNDS ($(cut -d' ' -f1 /proc/loadavg))" "≤ 1.0×"

# 5. peak RSS of a sync of N changed notes in the BIG vault
for d in big bigg; do
    find "$WORK/$d" -name '*.md' -not -path '*/.git/*' -not -path '*/.quire/*' | sort | head -n "$N" | tr '\n' '\0' \
        | xargs -0 sed -i '$a edited for the memory benchmark'
done
sync
mq=$(cd "$WORK/big" && /usr/bin/time -f %M "$QUIRE" sync 2>&1 >/dev/null | tail -1)
mg=$(cd "$WORK/bigg" && /usr/bin/time -f %M sh -c "git add -A && git commit -qm edit && git push -q origin HEAD:refs/heads/main" 2>&1 >/dev/null | tail -1)
echo "| peak RSS, $N changed notes of $BIG | $((mq / 1024)) MB | $((mg / 1024)) MB | $(ratio "$mq" "$mg")× | ≤ 300 MB |"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
