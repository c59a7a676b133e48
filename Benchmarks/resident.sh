#!/bin/sh
# Resident memory of the watcher (`quire watch run`) and of the sync daemon (`quire watch run
# --sync`) on a copy of an indexed vault: VmRSS and its anonymous part (/proc/PID/smaps_rollup)
# once the process is ready, after a search that asks it, and (the daemon) after a sync cycle
# that commits and pushes one edited note to a bare remote on disk. The language server has its
# own script: Benchmarks/lsp.py --ready-only.
#   Benchmarks/resident.sh VAULT [QUIRE...]
# VAULT is never written (it is copied once into a temporary folder, with the remote beside it);
# each QUIRE (default .build/release/quire) runs in turn on that copy, with the load average.
set -eu
vault=$(cd "$1" && pwd); shift
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$here/.build/release/quire"
work=$(mktemp -d /tmp/quire-resident.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
export QUIRE_DEVICE=bench HOME=$work GIT_CONFIG_NOSYSTEM=1 TZ=UTC
cp -a "$vault" "$work/vault"
git clone -q --bare "$work/vault" "$work/remote.git"
cd "$work/vault"
"$(realpath "$1")" remote --replace "$work/remote.git" >/dev/null

memory() {  # "RSS MB (anonymous MB)" of $pid
    awk '/^Rss:/ {r=$2} /^Anonymous:/ {a=$2} END {printf "%d MB (%d)", r/1024, a/1024}' "/proc/$pid/smaps_rollup"
}
wait_for() {  # polls a command until it succeeds (at most 600 s)
    n=0
    until "$@" >/dev/null 2>&1; do n=$((n + 1)); [ $n -lt 6000 ] || return 1; sleep 0.1; done
}
cycles() {  # the daemon writes one line per cycle
    count=$(grep -c ' sync ' .quire/local/log 2>/dev/null) || true
    echo "${count:-0}"
}
more_cycles_than() { [ "$(cycles)" -gt "$1" ]; }

echo "| binary | process | ready | after a search | after a sync cycle | load average |"
echo "|---|---|---:|---:|---:|---|"
for name in "$@"; do
    quire=$(realpath "$name")
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    "$quire" watch run >/dev/null 2>&1 &
    pid=$!
    wait_for "$quire" watch status --json
    "$quire" search zzzznothing >/dev/null 2>&1 || true  # the first command may still walk
    ready=$(memory)
    "$quire" search note >/dev/null
    searched=$(memory)
    "$quire" watch stop >/dev/null; wait "$pid" 2>/dev/null || true; pid=
    echo "| $name | \`watch run\` | $ready | $searched | — | $load |"

    load=$(cut -d' ' -f1-3 /proc/loadavg)
    before=$(cycles)
    "$quire" watch run --sync --debounce 1 >/dev/null 2>&1 &
    pid=$!
    wait_for "$quire" watch status --json
    wait_for more_cycles_than "$before"  # the first cycle at start
    ready=$(memory)
    "$quire" search note >/dev/null
    searched=$(memory)
    before=$(cycles)
    note=$(git ls-files '*.md' | head -1)
    printf '\nEdited by Benchmarks/resident.sh at %s.\n' "$(date +%s%N)" >> "$note"
    wait_for more_cycles_than "$before"
    cycled=$(memory)
    "$quire" watch stop >/dev/null; wait "$pid" 2>/dev/null || true; pid=
    echo "| $name | \`watch run --sync\` | $ready | $searched | $cycled | $load |"
done
