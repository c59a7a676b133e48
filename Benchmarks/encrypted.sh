#!/bin/sh
# Encrypted remote vs plain (issue 37), alternating rounds on one machine:
#   1. the first sync of an N-note vault to an empty bare repository (`quire sync` after
#      `quire remote URL` / `quire remote URL --encrypt`, neither timed)
#   2. a one-note sync (one note edited, `quire sync`), ONE alternating pairs after the rounds
#   3. the host's size after the first sync and K one-note syncs, against the vault's own
#      packed size (`git repack -ad`)
# usage: Benchmarks/encrypted.sh [QUIRE] [N=10000] [ROUNDS=3] [K=20] [ONE=7]
# Prints a Markdown table (paste it into Docs/benchmarks.md).
set -eu
NAME=encrypted
. "$(dirname "$0")/common.sh"
N=${2:-10000}
ROUNDS=${3:-3}
K=${4:-20}
ONE=${5:-7}
export QUIRE_PASSPHRASE="benchmark passphrase" QUIRE_PASSPHRASE_COST=interactive

python3 "$ROOT/Benchmarks/gen-vault" "$N" "$WORK/base" >/dev/null
edit_one() { printf 'edited %s\n' "$2" >>"$1/$(cd "$1" && find . -name '*.md' -not -path './.quire/*' | sort | head -1)"; }
kib() { du -sk "$1" | cut -f1; }
median() { tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "## Encrypted remote vs plain ($(nproc) cores, $(date -u +%Y-%m-%d), $N notes, load average at start $(cut -d' ' -f1-3 /proc/loadavg))"
echo
plain_first="" enc_first="" plain_one="" enc_one=""
round=1
while [ "$round" -le "$ROUNDS" ]; do
    for kind in plain enc; do
        dir="$WORK/$kind$round"; host="$WORK/$kind$round.git"
        cp -a "$WORK/base" "$dir"; git init -q --bare "$host"
        if [ "$kind" = enc ]; then flag=--encrypt; else flag=""; fi
        ( cd "$dir" && "$QUIRE" remote "$host" $flag >/dev/null 2>&1 )
        sync
        first=$(cd "$dir" && time_ms "$QUIRE" sync)
        if [ "$kind" = enc ]; then enc_first="$enc_first $first"; else plain_first="$plain_first $first"; fi
        echo "round $round $kind: first sync $first ms (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    done
    round=$((round + 1))
done
i=1
while [ "$i" -le "$ONE" ]; do
    for kind in plain enc; do
        edit_one "$WORK/${kind}1" "one $i"; sync
        one=$(cd "$WORK/${kind}1" && time_ms "$QUIRE" sync)
        if [ "$kind" = enc ]; then enc_one="$enc_one $one"; else plain_one="$plain_one $one"; fi
        echo "one-note sync $i $kind: $one ms (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    done
    i=$((i + 1))
done
pf=$(echo $plain_first | median); ef=$(echo $enc_first | median)
po=$(echo $plain_one | median); eo=$(echo $enc_one | median)
echo "| measurement (median of alternating runs) | plain | encrypted | ratio | target |"
echo "|---|---|---|---|---|"
echo "| first sync of $N notes ($ROUNDS runs each) | ${pf} ms | ${ef} ms | $(ratio "$ef" "$pf")× | ≤ 1.5× |"
echo "| one-note sync of the $N-note vault ($ONE runs each) | ${po} ms | ${eo} ms | $(ratio "$eo" "$po")× | ≤ 2× |"

# 3. the host's size after K more one-note syncs (the packs consolidated as they go)
i=1
while [ "$i" -le "$K" ]; do
    edit_one "$WORK/enc1" "more $i"; ( cd "$WORK/enc1" && "$QUIRE" sync >/dev/null 2>&1 )
    edit_one "$WORK/plain1" "more $i"; ( cd "$WORK/plain1" && "$QUIRE" sync >/dev/null 2>&1 )
    i=$((i + 1))
done
git -C "$WORK/enc1" repack -adq
vault=$(kib "$WORK/enc1/.git/objects/pack")
host=$(kib "$WORK/enc1.git/objects")
plainhost=$(kib "$WORK/plain1.git/objects")
echo "| host's size after the first sync and $((ONE + K)) one-note syncs | ${plainhost} KiB | ${host} KiB | $(ratio "$host" "$plainhost")× the plain host, $(ratio "$host" "$vault")× the vault's packed ${vault} KiB | ≤ 2× |"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
