#!/bin/sh
# Fuzzes the front-matter reader/writer, the query parser, the catalog snapshot loader and the
# JSON reader/writer with libFuzzer.
#
#   Benchmarks/fuzz.sh [SECONDS] [TARGET...]     TARGET: frontmatter, query, snapshot, json (default: all)
#   Benchmarks/fuzz.sh --replay FILE|DIR...       replay inputs on every target, without libFuzzer
#
# Each target is compiled directly with swiftc together with the library sources (no Package.swift
# target): QuireCore as a static library (-enable-testing), then FrontMatterTarget.swift in its
# own module (@testable import QuireCore), JSONTarget.swift in its own module, and
# Sources/QuireSearch + QueryTarget.swift (or SnapshotTarget.swift) as module QuireSearch, with the CICU C target compiled by clang. Binaries land in .build/fuzz/; <target>.dict files hold tokens for libFuzzer.
# Every target runs for SECONDS (default 60) from its seed corpus Benchmarks/fuzz/corpus-<target>/;
# new inputs go to .build/fuzz/corpus-<target>/, crashes to .build/fuzz/crashes-<target>/.
# The summary prints executions, time and crashes found per target; exit 1 if any target failed.
# FUZZ_SANITIZERS (default fuzzer,address) and FUZZ_OPT (default -O) tune the build.
set -eu
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
command -v "$SWIFTC" >/dev/null 2>&1 || SWIFTC=/opt/swift/usr/bin/swiftc
CLANG=${CLANG:-$(dirname "$(command -v "$SWIFTC")")/clang}
OUT=.build/fuzz
SANITIZERS=${FUZZ_SANITIZERS:-fuzzer,address}
OPT=${FUZZ_OPT:--O}
export SWIFT_BACKTRACE=enable=no
mkdir -p "$OUT"

# build MODE [TARGET...]: MODE is "fuzz" (libFuzzer) or "replay" (plain main); only the targets
# named (default: all). QuireCore is compiled once, with -enable-testing so the front-matter
# target can look inside a NoteDocument.
wants() { case "$wanted" in *" $1 "*) return 0 ;; esac; return 1; }
build() {
    mode=$1
    shift
    wanted=" ${*:-frontmatter query snapshot json} "
    if [ "$mode" = fuzz ]; then flags="-sanitize=$SANITIZERS -D FUZZING"; suffix=""; else flags=""; suffix="-replay"; fi
    lib="$OUT/lib$mode"
    mkdir -p "$lib"
    # shellcheck disable=SC2086
    "$SWIFTC" $OPT -g $flags -enable-testing -parse-as-library -module-name QuireCore -I Sources/CYAML \
        Sources/QuireCore/*.swift -emit-module -emit-module-path "$lib/QuireCore.swiftmodule" \
        -emit-library -static -o "$lib/libQuireCore.a"
    if wants frontmatter; then
        # shellcheck disable=SC2086
        "$SWIFTC" $OPT -g $flags -parse-as-library -module-name FuzzFrontMatter -I Sources/CYAML -I "$lib" \
            Benchmarks/fuzz/FrontMatterTarget.swift Benchmarks/fuzz/FuzzEntry.swift \
            -L "$lib" -lQuireCore -lyaml -o "$OUT/fuzz-frontmatter$suffix"
    fi
    if wants json; then
        # shellcheck disable=SC2086
        "$SWIFTC" $OPT -g $flags -parse-as-library -module-name FuzzJSON -I Sources/CYAML -I "$lib" \
            Benchmarks/fuzz/JSONTarget.swift Benchmarks/fuzz/FuzzEntry.swift \
            -L "$lib" -lQuireCore -lyaml -o "$OUT/fuzz-json$suffix"
    fi
    # The CICU C target (ICU word breaks): an object file and a module map of its header.
    mkdir -p "$lib/cicu"
    printf 'module CICU {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CICU/include/quire_word_breaks.h" \
        >"$lib/cicu/module.modulemap"
    "$CLANG" -O2 -g -I Sources/CICU/include -c Sources/CICU/word_breaks.c -o "$lib/word_breaks.o"
    for target in query snapshot; do
        wants "$target" || continue
        file=QueryTarget.swift
        [ "$target" = snapshot ] && file=SnapshotTarget.swift
        # shellcheck disable=SC2086
        "$SWIFTC" $OPT -g $flags -parse-as-library -module-name QuireSearch -I Sources/CYAML -I "$lib" -I "$lib/cicu" \
            Sources/QuireSearch/*.swift "Benchmarks/fuzz/$file" Benchmarks/fuzz/FuzzEntry.swift \
            "$lib/word_breaks.o" -L "$lib" -lQuireCore -lyaml -licuuc -o "$OUT/fuzz-$target$suffix"
    done
}

if [ "${1:-}" = --replay ]; then
    shift
    build replay
    for target in frontmatter query snapshot json; do "$OUT/fuzz-$target-replay" "$@"; done
    exit 0
fi

SECONDS_PER_TARGET=${1:-60}
[ $# -gt 0 ] && shift
TARGETS=${*:-frontmatter query snapshot json}
echo "building fuzz targets ($SANITIZERS, $OPT)..."
# shellcheck disable=SC2086
if ! build fuzz $TARGETS >"$OUT/build.log" 2>&1; then cat "$OUT/build.log"; exit 1; fi
grep -v 'Cannot export local symbol' "$OUT/build.log" || true
status=0
summary=""
for target in $TARGETS; do
    corpus="$OUT/corpus-$target"
    crashes="$OUT/crashes-$target"
    mkdir -p "$corpus" "$crashes"
    log="$OUT/$target.log"
    echo "fuzzing $target for ${SECONDS_PER_TARGET}s (log: $log)"
    start=$(date +%s)
    touch "$OUT/.started-$target"
    dict=""
    [ -f "Benchmarks/fuzz/$target.dict" ] && dict="-dict=Benchmarks/fuzz/$target.dict"
    set +e
    # shellcheck disable=SC2086
    "$OUT/fuzz-$target" "$corpus" "Benchmarks/fuzz/corpus-$target" $dict \
        -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$crashes/" >"$log" 2>&1
    code=$?
    set -e
    elapsed=$(( $(date +%s) - start ))
    runs=$(grep -h '^stat::number_of_executed_units' "$log" | awk '{s+=$2} END {print s+0}')
    found=$(find "$crashes" -type f -newer "$OUT/.started-$target" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
    [ "$code" -eq 0 ] || status=1
    line="$target: $runs executions in ${elapsed}s, $found crash/timeout/oom files in $crashes (exit $code)"
    echo "$line"
    summary="$summary$line
"
done
printf '\nsummary\n%s' "$summary"
[ "$status" -eq 0 ] || echo "a target failed: see its log; replay with Benchmarks/fuzz.sh --replay FILE"
exit "$status"
