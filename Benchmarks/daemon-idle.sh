#!/bin/sh
# CPU time of an idle sync daemon (`quire watch run --sync`): a vault of NOTES notes in FOLDERS
# folders synced with a bare repository on disk; the daemon starts, settles (its first cycle),
# and its user+system CPU time (from /proc/PID/stat) is read before and after SECONDS seconds of
# no activity in the vault. Fetches still happen on the timer (FETCH seconds, default 60 like the
# daemon's default); FETCH=0 leaves only the watching (a fetch interval of a day).
#   Benchmarks/daemon-idle.sh [SECONDS=600] [NOTES=1000] [FOLDERS=50]
# Needs a built quire (QUIRE=path, default .build/release/quire, else .build/debug/quire).
set -eu
seconds=${1:-600}; notes=${2:-1000}; folders=${3:-50}
fetch=${FETCH:-60}; [ "$fetch" = 0 ] && fetch=86400
here=$(cd "$(dirname "$0")/.." && pwd)
quire=${QUIRE:-$here/.build/release/quire}
[ -x "$quire" ] || quire=$here/.build/debug/quire
work=$(mktemp -d /tmp/quire-idle.XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
export QUIRE_DEVICE=bench HOME=$work GIT_CONFIG_NOSYSTEM=1
git init -q --bare -b main "$work/remote.git"
"$quire" init "$work/vault" >/dev/null
i=0
while [ $i -lt "$notes" ]; do
    f=$((i % folders))
    mkdir -p "$work/vault/folder-$f"
    printf -- '---\ntitle: Note %s\ntags: [bench]\n---\nSome text of note %s.\n' $i $i > "$work/vault/folder-$f/note-$i.md"
    i=$((i + 1))
done
cd "$work/vault"
"$quire" remote "$work/remote.git" >/dev/null
"$quire" sync >/dev/null
"$quire" watch run --sync --fetch-interval "$fetch" 2>"$work/daemon.log" >/dev/null &
pid=$!
sleep 5   # the first cycle and the catalog watcher settle
# Fields 14 and 15 of /proc/PID/stat: user and system ticks of the whole process, every thread.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks $pid)
sleep "$seconds"
after=$(ticks $pid)
cycles=$(grep -c 'sync ok' "$work/daemon.log" || true)
echo "idle $seconds s, $notes notes in $folders folders, fetch every $fetch s: CPU $(( (after - before) * 1000 / hz )) ms (user+system, all threads), $cycles cycles"
