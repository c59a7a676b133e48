#!/bin/sh
# Merge benchmark (issue 31), side by side with git's own three-way file merge:
#   1. one note of L lines (default 10,000) with E scattered edits on each side (default 100:
#      lines replaced, words changed, lines added; a tenth of them on the same lines as the other
#      side's, so that the word merge runs): `quire merge-driver` vs `git merge-file -p`
#   2. M notes (default 1,000) whose same body line both devices changed, different words of it:
#      one `quire sync` that merges them all word by word
# usage: Benchmarks/merge.sh [QUIRE] [L=10000] [E=100] [M=1000]
# Prints a Markdown table (paste it into Docs/benchmarks.md).
set -eu
NAME=merge
. "$(dirname "$0")/common.sh"
L=${2:-10000}
E=${3:-100}
M=${4:-1000}

# 1. One long note.
python3 - "$WORK" "$L" "$E" <<'PY'
import random, sys
work, lines, edits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(31)
words = ["river", "lantern", "budget", "meeting", "garden", "orbit", "velvet", "harbor", "signal", "maple"]
base = [" ".join(rng.choice(words) for _ in range(rng.randint(6, 14))) + f" {n}." for n in range(lines)]
def edit(side, shared):
    out = list(base)
    picks = set(rng.sample(range(lines), edits))
    picks |= set(shared)
    for n in sorted(picks, reverse=True):
        kind = rng.randint(0, 2)
        if kind == 0:
            out[n] = f"line {n} rewritten on {side}."
        elif kind == 1:
            w = out[n].split(" ")
            w[rng.randrange(len(w) - 1) if n not in shared else (0 if side == "laptop" else len(w) - 2)] = side
            out[n] = " ".join(w)
        else:
            out.insert(n + 1, f"added on {side} after {n}.")
    return out
shared = rng.sample(range(lines), max(1, edits // 10))
front = "---\nid: 6f1c2a9e-0000-4000-8000-000000000001\nupdatedAt: {}\n---\n"
open(f"{work}/base.md", "w").write(front.format("2026-12-01T09:00:00Z") + "\n".join(base) + "\n")
open(f"{work}/laptop.md", "w").write(front.format("2026-12-01T10:00:00Z") + "\n".join(edit("laptop", shared)) + "\n")
open(f"{work}/phone.md", "w").write(front.format("2026-12-01T11:00:00Z") + "\n".join(edit("phone", shared)) + "\n")
PY
# The driver runs as git runs it in a merge: in a repository whose HEAD is the laptop's commit,
# with GITHEAD_<commit> naming the phone's and GIT_REFLOG_ACTION saying "merge" (outside a merge
# it leaves colliding text to the user, git's markers).
(cd "$WORK" && git init -q -b main && git config user.name bench && git config user.email bench@example.com &&
    cp base.md note.md && git add note.md && git commit -qm base &&
    git checkout -qb phone && cp phone.md note.md && git commit -qam phone &&
    git checkout -q main && cp laptop.md note.md && git commit -qam laptop)
PHONE=$(git -C "$WORK" rev-parse phone)
# The driver writes over its second file: each run merges a fresh copy of the laptop's version.
best_quire=$(best_of 5 env "GITHEAD_$PHONE=phone" "GIT_REFLOG_ACTION=merge phone" sh -c 'cp "$1/laptop.md" "$1/ours.md" && cd "$1" && "$2" merge-driver base.md ours.md phone.md note.md' merge "$WORK" "$QUIRE")
best_git=$(best_of 5 sh -c 'git merge-file -p "$1/laptop.md" "$1/base.md" "$1/phone.md" || true' merge "$WORK")
echo "| measurement | quire | git | ratio |"
echo "|---|---|---|---|"
echo "| merge one $L-line note, $E scattered edits a side (best of 5) | ${best_quire} ms | ${best_git} ms (\`git merge-file\`, markers) | $(ratio "$best_quire" "$best_git")× |"

# 2. M notes whose same line both devices changed, different words.
python3 "$ROOT/Benchmarks/gen-vault" "$M" "$WORK/c" >/dev/null
git init -q --bare "$WORK/c.git"
( cd "$WORK/c" && "$QUIRE" remote "$WORK/c.git" >/dev/null && "$QUIRE" sync >/dev/null )
"$QUIRE" clone "$WORK/c.git" "$WORK/d" >/dev/null
# The first body line after the front matter: the laptop puts a word at its start, the desktop at its end.
find "$WORK/c" -name '*.md' -not -path '*/.quire/*' -print0 | xargs -0 sed -i '0,/^---$/b; 0,/^---$/b; /^[A-Za-z]/{s/^/laptop-said /;:a;n;ba}'
find "$WORK/d" -name '*.md' -not -path '*/.quire/*' -print0 | xargs -0 sed -i '0,/^---$/b; 0,/^---$/b; /^[A-Za-z]/{s/$/ desktop-said/;:a;n;ba}'
( cd "$WORK/c" && QUIRE_DEVICE=laptop "$QUIRE" sync >/dev/null )
sync
start=$(now_ms); ( cd "$WORK/d" && QUIRE_DEVICE=desktop "$QUIRE" sync >/dev/null ); end=$(now_ms)
both=$(grep -l "laptop-said.*desktop-said" -r "$WORK/d" --include='*.md' | wc -l)
echo "| resolve $M notes whose same line both devices changed (one sync) | $((end - start)) ms | — | $both of $M notes keep both words |"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
