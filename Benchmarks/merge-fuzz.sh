#!/bin/sh
# The merge's generative test (Tests/QuireSyncTests/MergeGenerativeTests.swift) for many cases:
# random edits on both sides of a note, checking that every edit that overlaps nothing survives,
# that both devices merge to the same bytes, that every dropped edit is recorded and that no run
# of text is repeated. `make test` runs 300 cases.
# usage: Benchmarks/merge-fuzz.sh [CASES=20000]
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
start=$(date +%s)
QUIRE_MERGE_CASES=${1:-20000} swift test --skip-build --filter MergeGenerativeTests 2>&1 | grep -E "✔|✘|↳" | head -20
echo "${1:-20000} cases in $(( $(date +%s) - start )) s"
