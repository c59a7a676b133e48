#!/bin/sh
# The tour `make demo` runs: a copy of SampleVault in a temporary folder, explored with quire.
# Usage: scripts/demo.sh PATH-TO-QUIRE
set -eu
QUIRE=${1:?usage: scripts/demo.sh PATH-TO-QUIRE}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/quire-demo.XXXXXX")
export QUIRE_DEVICE=demo-laptop NO_COLOR=1
# The sample notes were written in mid-2026: pin the clock so relative dates in the tour make sense.
export QUIRE_NOW=2026-06-10T09:00:00Z
export GIT_AUTHOR_NAME="Quire Demo" GIT_AUTHOR_EMAIL=demo@example.invalid

if [ -t 1 ]; then BOLD=$(printf '\033[1m'); PLAIN=$(printf '\033[0m'); else BOLD=""; PLAIN=""; fi
step() { printf '\n%s$ quire %s%s\n' "$BOLD" "$*" "$PLAIN"; "$QUIRE" "$@"; }

cp -R "$ROOT/SampleVault" "$WORK/vault"
cd "$WORK/vault"
echo "A copy of SampleVault is in $WORK/vault"
step init
step list
step show "Woody's last ride"
step new "The claw machine" --folder Pitches --project "Toy Story 5" --tag pitch --tag character/aliens --draft --body "The aliens finally meet the claw."
step set "The claw machine" color=green mood=4
step show "The claw machine" --raw
step folders
step stats
step search cafe
step list 'project:"Toy Story 5"' draft:true
step search 上映 --paths
# Large vaults: a background watcher tells each command which notes changed, so none has to
# look at every file first.
step watch start
echo "A line typed in another editor: the lighthouse keeper." >> scratchpad.md
step index
step search lighthouse --paths
step watch stop
. "$ROOT/scripts/demo-sync.sh"
printf '\nDone. Explore further in %s/vault (quire --help lists every command).\n' "$WORK"
