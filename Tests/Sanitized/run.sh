#!/bin/sh
# The built `quire` under AddressSanitizer, end to end: a heap over-read that only crashes a
# release build when it runs off the end of an arena (a sync of 10,000 notes, now and then) is
# an error here every time. Builds `quire` with `--sanitize=address` into .build/asan, then in a
# generated vault of NOTES notes (default 2,000, links between them) with a bare remote and two
# clones runs the commands that read files in parallel, walk folders or write many notes:
# rebuild, search, graph, backlinks, links, list, check, a sync of every note (files replaced in a
# batch, retired and purged in the background), edits of one line on both clones merged, a
# second rebuild and the queries again. Any sanitizer report or crash fails; exit codes the
# commands document (check's 1 for broken links) do not.
#   Tests/Sanitized/run.sh            (make test-asan)
set -eu
cd "$(dirname "$0")/../.."
ROOT=$PWD
NOTES=${NOTES:-2000}
SWIFT=${SWIFT:-swift}
"$SWIFT" build --sanitize=address --product quire --build-path .build/asan
QUIRE="$ROOT/.build/asan/debug/quire"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/quire-asan.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0"
export GIT_AUTHOR_NAME=asan GIT_AUTHOR_EMAIL=asan@example.invalid GIT_COMMITTER_NAME=asan GIT_COMMITTER_EMAIL=asan@example.invalid

failures=0
# run DIR ARGS…: quire ARGS in DIR; fails on a sanitizer report or a signal
run() {
    dir=$1; shift
    status=0
    (cd "$dir" && "$QUIRE" "$@" >/dev/null 2>"$WORK/stderr") || status=$?
    if grep -q "Sanitizer" "$WORK/stderr" || [ "$status" -ge 128 ]; then
        echo "FAIL (exit $status): quire $*"
        grep -E "ERROR|SUMMARY|#[0-9]+ " "$WORK/stderr" | head -20
        failures=$((failures + 1))
    else
        echo "ok (exit $status): quire $*"
    fi
}
# edit DIR COUNT SED: applies SED to the first COUNT notes of DIR
edit() {
    (cd "$1" && git ls-files -z "*.md" | head -z -n "$2" | xargs -0 sed -i "$3")
}

python3 Benchmarks/gen-vault "$NOTES" "$WORK/vault" --links 5 >/dev/null
(cd "$WORK/vault" && git init -q -b main . 2>/dev/null || true; git add -A && git commit -qm "generated vault")
git clone -q --bare "$WORK/vault" "$WORK/remote.git"
for side in one two; do
    git clone -q "$WORK/remote.git" "$WORK/$side"
    mkdir -p "$WORK/$side/.quire/local" && echo "watch: off" >"$WORK/$side/.quire/local/config.yml"
done
target=$(cd "$WORK/one" && git ls-files "*.md" | head -1)

queries() {
    run "$1" search the
    run "$1" search "tag:work OR project:alpha" --paths
    run "$1" graph --json
    run "$1" backlinks "$target"
    run "$1" links "$target"
    run "$1" list
}
run "$WORK/one" index --rebuild
queries "$WORK/one"
run "$WORK/one" check
edit "$WORK/one" "$NOTES" '$a\
edited on one'
run "$WORK/one" sync -q
run "$WORK/two" sync -q
edit "$WORK/two" "$((NOTES / 2))" '8s/$/ (two)/'
edit "$WORK/one" "$((NOTES / 2))" '8s/^/(one) /;12s/$/ one again/'
run "$WORK/two" sync -q
run "$WORK/one" sync -q
run "$WORK/two" sync -q
queries "$WORK/two"
run "$WORK/two" index --rebuild
queries "$WORK/two"
# Updates over recent changes they keep (each merged with the update's own notes' segment):
# 300 notes edited and searched, then 10 others and 5 of those 300.
edit "$WORK/two" 300 '$a\
recent one'
run "$WORK/two" search recent
(cd "$WORK/two" && git ls-files -z "*.md" | sed -z -n '1,5p;601,610p' | xargs -0 sed -i '$a\
recent two')
run "$WORK/two" search recent
queries "$WORK/two"
if [ "$(cd "$WORK/one" && git status --porcelain | wc -l)" -ne 0 ]; then
    echo "FAIL: the sync left changes uncommitted"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "no sanitizer report" || { echo "$failures failed"; exit 1; }
