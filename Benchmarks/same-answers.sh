#!/bin/sh
# Whether two builds' catalogs answer alike: rebuilds a copy of VAULT with each binary and
# compares, byte for byte, `list --json` (words, tags, fields of every note), `tags`, `stats`,
# `graph --json`, `check` (up to 5,000 notes), `links` and `backlinks --json` of a sample of notes, and searches of
# words, phrases, CJK text, tags and fields taken from the vault itself. For a change that
# should leave every answer as it was (the rebuild's parsing, say).
#
#   Benchmarks/same-answers.sh VAULT BASE NEW     e.g. /work/shared/corpora/hugo-docs, two quire binaries
#
# Prints the first differences and exits 1 when there are any; else 0. The copy has
# `watch: off` (no watcher) and is removed at the end.
set -eu
[ $# -eq 3 ] || { echo "usage: same-answers.sh VAULT BASE NEW" >&2; exit 2; }
vault=$1 base=$2 new=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$vault" "$work/vault"
cd "$work/vault"
[ -d .git ] || { git init -q . && git add -A && git -c user.name=q -c user.email=q@q commit -qm notes; }
[ -d .quire ] || "$base" init >/dev/null 2>&1 || true
mkdir -p .quire/local
echo "watch: off" >>.quire/local/config.yml
# Queries: frequent and rare words, two-word phrases, CJK runs and tags of the notes themselves.
notes=$(find . -name '*.md' -not -path './.quire/*' -not -path './.git/*' | LC_ALL=C sort)
sample=$(echo "$notes" | awk 'NR % 97 == 1' | head -40)
words=$(echo "$sample" | head -20 | tr '\n' '\0' | xargs -0 cat | tr -cs 'A-Za-z' '\n' | awk 'length > 3' \
    | LC_ALL=C sort | uniq -c | sort -rn | awk 'NR <= 25 || NR % 40 == 0 {print $2}' | head -40)
phrases=$(echo "$sample" | head -10 | tr '\n' '\0' | xargs -0 cat | tr -cs 'A-Za-z' ' ' \
    | awk '{for (i = 1; i + 1 <= NF; i += 37) print $i " " $(i + 1)}' | head -15)
answers() {
    quire=$1 out=$2
    mkdir -p "$out"
    "$quire" index --rebuild >/dev/null
    "$quire" list --json >"$out/list.json"
    "$quire" list --sort path --format '{path}\t{words}\t{tags}' >"$out/list.tsv" || true
    "$quire" tags >"$out/tags.txt" || true
    "$quire" stats >"$out/stats.txt" || true
    "$quire" graph --json >"$out/graph.json"
    # `check` reads every note again (unlinked mentions): only in vaults up to 5,000 notes.
    [ "$(echo "$notes" | wc -l)" -gt 5000 ] || "$quire" check >"$out/check.txt" 2>&1 || true
    echo "$words" | while read -r word; do
        [ -n "$word" ] && "$quire" search "$word" --sort path --paths >>"$out/words.txt" 2>&1 || true
    done
    echo "$phrases" | while read -r phrase; do
        [ -n "$phrase" ] && "$quire" search "\"$phrase\"" --sort path --paths >>"$out/phrases.txt" 2>&1 || true
    done
    for query in 日本 上映 テキスト 한국 🔥 "C++" "C#" "tag:project" "draft:true" "pinned:true" "has:links" \
        "orphan:true" "words:>100"; do
        "$quire" search "$query" --sort path --paths >>"$out/special.txt" 2>&1 || true
    done
    "$quire" tags 2>/dev/null | awk '{print $1}' | head -30 | while read -r tag; do
        "$quire" list "tag:$tag" --sort path --paths >>"$out/tag-queries.txt" 2>&1 || true
    done
    echo "$sample" | while read -r note; do
        "$quire" links "$note" --json >>"$out/links.json" 2>&1 || true
        "$quire" backlinks "$note" --json >>"$out/backlinks.json" 2>&1 || true
    done
}
answers "$base" "$work/base"
answers "$new" "$work/new"
if diff -r "$work/base" "$work/new" >"$work/diff"; then
    echo "same answers: $(ls "$work/base" | wc -l) files, $(cat "$work"/base/* | wc -c) bytes"
else
    head -40 "$work/diff"
    exit 1
fi
