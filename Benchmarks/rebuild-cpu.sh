#!/bin/sh
# Cold rebuilds side by side, in CPU time as well as wall time: on a machine shared with other
# work (the load average far above the cores), wall times say little and CPU time (user + sys,
# every thread) is the steadier figure.
#
#   Benchmarks/rebuild-cpu.sh VAULT RUNS QUIRE...     e.g. a binary from before a change and after
#
# Each turn runs `QUIRE index --rebuild` for every binary given (each turn starting with the next
# one), then `rg -c .`, then one tantivy
# build (Benchmarks/reference-indexers.py --tantivy-only, from the texts in memory: only the build
# is timed), in that order, RUNS turns — so that a load that comes and goes weighs on each alike;
# then reference-indexers.py once more for SQLite FTS5 (three builds; slow; SQLITE=0 leaves it out). With a C compiler, each
# turn also runs the floor (Benchmarks/floor/floor.c: the least work a positional index takes,
# and the same program only reading the files). Prints the median
# wall and CPU milliseconds of each (Benchmarks/timed.py), each one's CPU time as a multiple of
# rg's, and each quire's wall and CPU time as a multiple of tantivy's.
set -eu
[ $# -ge 3 ] || { echo "usage: rebuild-cpu.sh VAULT RUNS QUIRE..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
vault=$1 runs=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$vault"
# measure NAME COMMAND...: appends "wall cpu" in ms to $out/NAME (to the microsecond:
# Benchmarks/timed.py; /usr/bin/time's hundredths of a second are too coarse here)
measure() {
    name=$1
    shift
    python3 "$here/timed.py" "$@" >>"$out/$name"
}
floor=""
if command -v cc >/dev/null 2>&1 && cc -O2 -pthread -o "$out/floor.bin" "$here/floor/floor.c" 2>/dev/null; then
    floor="$out/floor.bin"
fi
turn=0
while [ "$turn" -lt "$runs" ]; do
    # Each turn starts with the next build: the first rebuild of a turn, after tantivy's, costs
    # more CPU whichever build it is (0.5–0.8 s at 100,000 notes; likely the vault read back
    # into the page cache), and that share falls on every build alike over as many turns as builds.
    step=0
    while [ "$step" -lt $# ]; do
        index=$(( (turn + step) % $# + 1 ))
        eval "quire=\${$index}"
        measure "quire$index" "$quire" index --rebuild
        step=$((step + 1))
    done
    measure rg rg -c .
    if [ -n "$floor" ]; then
        measure floor "$floor" . 2
        measure floor_read "$floor" . 2 --read-only
    fi
    python3 "$here/reference-indexers.py" "$vault" 1 --tantivy-only \
        | sed -n 's/^tantivy \([0-9]*\) ms (cpu \([0-9]*\) ms)$/\1 \2/p' >>"$out/tantivy"
    turn=$((turn + 1))
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
rg_cpu=$(cut -d' ' -f2 "$out/rg" | median)
rg_wall=$(cut -d' ' -f1 "$out/rg" | median)
tantivy_wall=$( [ -s "$out/tantivy" ] && cut -d' ' -f1 "$out/tantivy" | median || echo 0)
tantivy_cpu=$( [ -s "$out/tantivy" ] && cut -d' ' -f2 "$out/tantivy" | median || echo 0)
row() {
    wall=$(cut -d' ' -f1 "$out/$2" | median)
    cpu=$(cut -d' ' -f2 "$out/$2" | median)
    versus=""
    if [ "$tantivy_wall" != 0 ] && [ "$2" != tantivy ] && [ "$2" != rg ]; then
        versus=$(awk -v w="$wall" -v c="$cpu" -v tw="$tantivy_wall" -v tc="$tantivy_cpu" \
            'BEGIN {printf ", vs tantivy: wall %.2fx, cpu %.2fx", w / tw, c / tc}')
    fi
    echo "$1: wall $wall ms, cpu $cpu ms, cpu vs rg $(awk -v a="$cpu" -v b="$rg_cpu" 'BEGIN {printf "%.1f", a / b}')x, wall vs rg $(awk -v a="$wall" -v b="$rg_wall" 'BEGIN {printf "%.1f", a / b}')x$versus"
}
index=0
for quire in "$@"; do
    index=$((index + 1))
    row "$quire" "quire$index"
done
row "rg -c ." rg
if [ -n "$floor" ]; then
    row "floor: read, split, number and invert the words (Benchmarks/floor)" floor
    row "floor, reading the files only" floor_read
fi
if [ -s "$out/tantivy" ]; then
    row "tantivy (one build a turn, from the texts in memory)" tantivy
fi
[ "${SQLITE:-1}" = 0 ] && exit 0
python3 "$here/reference-indexers.py" "$vault" 3 | grep -v '^tantivy' | while read -r line; do
    cpu=$(echo "$line" | sed -n 's/.*(cpu \([0-9]*\) ms).*/\1/p')
    if [ -n "$cpu" ]; then
        echo "$line, cpu vs rg $(awk -v a="$cpu" -v b="$rg_cpu" 'BEGIN {printf "%.1f", a / b}')x"
    else
        echo "$line"
    fi
done
