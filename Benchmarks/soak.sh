#!/bin/sh
# Soak test for `quire sync`: runs the chaos driver (Benchmarks/chaos/chaos.py) batch after batch
# with K devices, random faults (QUIRE_FAULT), SIGKILL of sync processes after a random delay and
# edits made while a sync runs; each batch ends with convergence and the no-loss ledger check.
# Prints the totals: rounds, operations, syncs, faults injected, kills, conflicts resolved, losses.
#
#   Benchmarks/soak.sh                      2000 operations, K=4, seed 1000 onwards
#   OPERATIONS=10000 K=5 SEED=42 ROUNDS=60 Benchmarks/soak.sh
#   SECONDS_BUDGET=600 Benchmarks/soak.sh   stop after ten minutes (whichever comes first)
#
# Environment: QUIRE (binary, default .build/debug/quire), K (devices, 4), OPERATIONS (2000),
# ROUNDS (rounds per batch, 40), SEED (first seed, 1000), SECONDS_BUDGET (0 = no limit),
# FAULTS, KILLS, EDITS_DURING_SYNC, CONCURRENT (probabilities per sync), KILL_DELAY (seconds, at most),
# EDGES (weight of each edge shape: symlinks, NFC/NFD names, file/folder, nested repositories,
# config files, git CLI commits, long names; with autocrlf on one device and skewed clocks; 0 = off),
# SHAPES_DURING_SYNC (the share of the edits during a sync that are the file-and-folder shape; 0),
# NAMESAKES (1: every device syncs under one name, as two laptops of one host name; 0).
# Exit code 0 when every batch converged with no loss; otherwise every failing batch's problems,
# seed and reproduction command are printed, and the soak goes on to the end.
set -eu
cd "$(dirname "$0")/.."
QUIRE=${QUIRE:-.build/debug/quire}
K=${K:-4}
OPERATIONS=${OPERATIONS:-2000}
ROUNDS=${ROUNDS:-40}
SEED=${SEED:-1000}
SECONDS_BUDGET=${SECONDS_BUDGET:-0}
FAULTS=${FAULTS:-0.08}
KILLS=${KILLS:-0.1}
KILL_DELAY=${KILL_DELAY:-0.1}
EDITS_DURING_SYNC=${EDITS_DURING_SYNC:-0.1}
CONCURRENT=${CONCURRENT:-0.3}
EDGES=${EDGES:-0}
SHAPES_DURING_SYNC=${SHAPES_DURING_SYNC:-0}
NAMESAKES=${NAMESAKES:-0}
namesakes=""
[ "$NAMESAKES" = 1 ] && namesakes="--namesakes"
[ -x "$QUIRE" ] || { echo "soak: no quire binary at $QUIRE (run swift build, or set QUIRE)" >&2; exit 2; }

LOG=$(mktemp -d "${TMPDIR:-/tmp}/quire-soak-XXXXXX")
# A private copy, so that a rebuild during the soak neither stops nor changes it.
cp "$QUIRE" "$LOG/quire"
QUIRE="$LOG/quire"
start=$(date +%s)
seed=$SEED
done_operations=0
status=0
failed=""
while [ "$done_operations" -lt "$OPERATIONS" ]; do
    if [ "$SECONDS_BUDGET" -gt 0 ] && [ $(( $(date +%s) - start )) -ge "$SECONDS_BUDGET" ]; then break; fi
    if ! python3 Benchmarks/chaos/chaos.py --binary "$QUIRE" --seed "$seed" --devices "$K" --rounds "$ROUNDS" \
            --operations $(( OPERATIONS - done_operations )) --fault-probability "$FAULTS" \
            --kill-probability "$KILLS" --kill-delay "$KILL_DELAY" --edit-during-sync-probability "$EDITS_DURING_SYNC" \
            --concurrent-probability "$CONCURRENT" --edges "$EDGES" --shapes-during-sync "$SHAPES_DURING_SYNC" $namesakes \
            > "$LOG/$seed.txt" 2>&1; then
        status=1
        failed="$failed $seed"
        grep -v '^  r[0-9]' "$LOG/$seed.txt"
    fi
    head -n 1 "$LOG/$seed.txt" >> "$LOG/figures.txt"
    ops=$(head -n 1 "$LOG/$seed.txt" | tr ' ' '\n' | sed -n 's/^operations=//p')
    done_operations=$(( done_operations + ${ops:-0} ))
    seed=$(( seed + 1 ))
done
elapsed=$(( $(date +%s) - start ))
# Sum every figure over the batches.
tr ' ' '\n' < "$LOG/figures.txt" | awk -F= -v batches="$(wc -l < "$LOG/figures.txt")" -v k="$K" \
    -v seeds="$SEED..$(( seed - 1 ))" -v elapsed="$elapsed" '
    $2 ~ /^[0-9.]+$/ { sum[$1] += $2 }
    END {
        printf "soak: %d batches (seeds %s), K=%d devices, %d s\n", batches, seeds, k, elapsed
        printf "rounds:              %d\n", sum["rounds"]
        printf "operations:          %d (tokens in the ledger: %d)\n", sum["operations"], sum["tokens"]
        printf "syncs:               %d (%d failed as intended or by a race, %d pairs run concurrently)\n", sum["syncs"], sum["failed_syncs"], sum["concurrent_syncs"]
        printf "faults injected:     %d (QUIRE_FAULT)\n", sum["faults"]
        printf "SIGKILLs:            %d (%d leaving a lock file on a reference)\n", sum["kills"], sum["locks_left"]
        printf "edits during a sync: %d (%d of them the file-and-folder shape; %d files kept beside a folder)\n", sum["edits_during_sync"], sum["shapes_during_sync"], sum["kept_beside_folders"]
        printf "conflicts resolved:  %d\n", sum["conflicts"]
        printf "namesake warnings:   %d (NAMESAKES=1: devices told another syncs under their name)\n", sum["namesake_warnings"]
        printf "losses found:        %d\n", sum["losses"]
    }'
if [ "$status" -eq 0 ]; then rm -rf "$LOG"; else echo "failed batches (seeds):$failed; their output is in $LOG"; fi
exit "$status"
