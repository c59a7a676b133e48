# Shared by the shell benchmarks (sync.sh, merge.sh): sourced after the script sets NAME and
# takes QUIRE from its first argument. Sets ROOT, QUIRE (absolute) and WORK (removed at exit),
# a fixed author and device, and the timing helpers.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUIRE=$(cd "$(dirname "${1:-$ROOT/.build/release/quire}")" && pwd)/$(basename "${1:-quire}")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/quire-$NAME-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export QUIRE_DEVICE=bench GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
[ -x "$QUIRE" ] || { echo "build quire first: make release" >&2; exit 1; }

now_ms() { date +%s%3N; }
time_ms() { start=$(now_ms); "$@" >/dev/null 2>&1 || echo "warning: '$*' failed" >&2; end=$(now_ms); echo $((end - start)); }
best_of() { n=$1; shift; best=""; i=0; while [ $i -lt "$n" ]; do t=$(time_ms "$@"); if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi; i=$((i + 1)); done; echo "$best"; }
ratio() { python3 -c "print(f'{$1 / max($2, 1):.2f}')"; }
