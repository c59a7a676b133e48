#!/usr/bin/env bash
# The first search after a `git pull` of 1,000 changed notes (issue 35, item 4), two builds side
# by side: each round another clone pushes 1,000 edited notes, the device runs `git pull`, then
# OLD and NEW take turns at `quire search WORD --paths` (one per pull), each beside `rg -il WORD`.
#
#   Benchmarks/pull.sh VAULT OLD/quire NEW/quire [ROUNDS] [off|watcher]
#
# VAULT is a committed vault (only read: cloned). ROUNDS (default 14) pulls per build; `watcher`
# runs NEW's `quire watch` in the device throughout. Prints, per build, the median and maximum
# wall time, the median CPU time and peak RSS (Benchmarks/timed.py), rg's median, the ratio of
# medians and the load average seen. UNMERGED=N (default 0) first pulls an edit of N other notes
# into the device and runs one search there: a command after a pull defers merging them into the
# catalog's main segment (up to a quarter of the notes edited), so every round then starts with
# N notes of recent changes, as a device does some time after a large pull.
set -eu
NAME=pull
. "$(dirname "$0")/common.sh" "$3"
VAULT=$1
OLD=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
NEW=$QUIRE
ROUNDS=${4:-14}
MODE=${5:-off}
WORD=${WORD:-anguislo}
export QUIRE_NOW= TZ=UTC NO_PROGRESS=1
cd "$WORK"
git clone -q --bare "$VAULT" remote.git
git clone -q remote.git device
git clone -q remote.git other
mkdir -p device/.quire/local && echo "watch: off" >device/.quire/local/config.yml
(cd device && "$NEW" index >/dev/null 2>&1)
if [ "$MODE" = watcher ]; then (cd device && "$NEW" watch start >/dev/null && "$NEW" index >/dev/null 2>&1); fi
if [ "${UNMERGED:-0}" -gt 0 ]; then
    (cd other && git ls-files -z "*.md" | head -z -n $((1000 + UNMERGED)) | tail -z -n "$UNMERGED" \
        | while IFS= read -r -d "" path; do echo "unmerged" >>"$path"; done \
        && git commit -qam "unmerged" && git push -q origin HEAD) >/dev/null 2>&1
    (cd device && git pull -q --no-rebase >/dev/null 2>&1 && "$NEW" search "$WORD" --paths >/dev/null)
fi
i=0
while [ "$i" -lt "$ROUNDS" ]; do
    for build in old new; do
        binary=$([ "$build" = old ] && echo "$OLD" || echo "$NEW")
        (cd other && git pull -q --no-rebase && git ls-files -z "*.md" | head -z -n 1000 \
            | while IFS= read -r -d "" path; do echo "pulled $build $i" >>"$path"; done \
            && git commit -qam "round $build $i" && git push -q origin HEAD) >/dev/null 2>&1
        (cd device && git pull -q --no-rebase >/dev/null 2>&1 && sync \
            && echo "$build $(python3 "$ROOT/Benchmarks/timed.py" "$binary" search "$WORD" --paths) $(python3 "$ROOT/Benchmarks/timed.py" rg -il "$WORD") $(cut -d' ' -f1 /proc/loadavg)") >>"$WORK/times"
    done
    i=$((i + 1))
done
if [ "$MODE" = watcher ]; then (cd device && "$NEW" watch stop >/dev/null); fi
python3 - "$WORK/times" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for build in ("old", "new"):
    runs = [row for row in rows if row[0] == build]
    wall = [float(row[1]) for row in runs]
    rg = statistics.median(float(row[4]) for row in runs)
    loads = [float(row[7]) for row in runs]
    print(f"{build}: median {statistics.median(wall):.0f} ms, max {max(wall):.0f} ms, "
          f"CPU {statistics.median(float(row[2]) for row in runs):.0f} ms, {max(float(row[3]) for row in runs) / 1024:.0f} MB; "
          f"rg -il {rg:.0f} ms; {statistics.median(wall) / rg:.2f}x; load {min(loads):.1f}-{max(loads):.1f}")
PY
