#!/bin/sh
# Sync benchmark (issue 4), one run on one machine, side by side with the git CLI:
#   1. commit + push of N changed notes: `quire sync` vs `git add -A && git commit && git push`
#   2. a no-op `quire sync` on a big vault vs `git status` + `git fetch`
#   3. resolving M notes edited on both sides (one `quire sync` that merges them)
# usage: Benchmarks/sync.sh [QUIRE] [N=10000] [BIG=100000] [M=1000]
# Prints a Markdown table (paste it into Docs/benchmarks.md).
set -eu
NAME=sync
. "$(dirname "$0")/common.sh"
N=${2:-10000}
BIG=${3:-100000}
M=${4:-1000}

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
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
