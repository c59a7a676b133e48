#!/usr/bin/env bash
# Search benchmark: quire against ripgrep on the same generated vault, 10k and 100k notes.
#
#   Benchmarks/search.sh                 # sizes 10000 100000, release build of quire
#   SIZES="10000" QUIRE=/path/to/quire Benchmarks/search.sh
#
# Needs: python3, hyperfine, rg, /usr/bin/time (GNU); the tantivy package from PyPI for its row
# (pip install tantivy; without it the row says "not run"). Vaults are generated once under
# $BENCH_DIR (default /tmp/quire-bench) by Benchmarks/gen-vault and reused.
#
# What quire must provide (CLI, written in main):
#   quire index --rebuild          rebuild the catalog cache from scratch
#   quire search WORD --paths      warm search, one path per line
#   quire list QUERY --paths       warm list
#   quire index --bench-queries    hidden: prints QueryBenchmark.run(catalog) as a line
#                                  containing "p50 <ms>" and "p99 <ms>"
#   quire watch start|stop         the inotify watcher: warm commands are measured without it
#                                  (a stat of every note) and with it
# Prints a Markdown table per size; copy it to Docs/benchmarks.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
QUIRE=${QUIRE:-"$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/quire"}
SIZES=${SIZES:-"10000 100000"}
BENCH_DIR=${BENCH_DIR:-/tmp/quire-bench}
RUNS=${RUNS:-10}

for tool in python3 hyperfine rg /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "search.sh: $tool is needed" >&2; exit 1; }
done
[ -x "$QUIRE" ] || { echo "search.sh: no quire binary at $QUIRE (make release)" >&2; exit 1; }
mkdir -p "$BENCH_DIR"

# mean seconds of a hyperfine JSON export
mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$1"; }
# peak resident set in KB of a command
peak_rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F: '/Maximum resident set size/ {gsub(/ /,"",$2); print $2}'; }

for size in $SIZES; do
    vault="$BENCH_DIR/vault-$size"
    if [ ! -f "$vault/.quire/local/bench-words" ]; then
        echo "generating $size notes in $vault ..." >&2
        rm -rf "$vault"
        python3 "$here/gen-vault" "$size" "$vault"
    fi
    word=$(awk '$1 == "middling" {print $2}' "$vault/.quire/local/bench-words")
    bytes=$(find "$vault" -name '*.md' -not -path '*/.git/*' -print0 | xargs -0 cat | wc -c)
    out="$BENCH_DIR/results-$size"
    mkdir -p "$out"
    cd "$vault"
    # Measured without a watcher first: no command may start one by itself.
    echo "watch: off" >"$vault/.quire/local/config.yml"
    "$QUIRE" watch stop >/dev/null

    echo "== $size notes, $((bytes / 1000000)) MB of Markdown, word '$word'" >&2
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$out/cold-quire.json" "$QUIRE index --rebuild" >&2
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$out/cold-rg.json" "rg -c ." >&2 || true
    sync                         # the rebuilds' writes go out now, not during the warm runs
    "$QUIRE" index >/dev/null   # make sure the cache is warm and fresh
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$out/search-quire.json" "$QUIRE search $word --paths" >&2
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$out/search-rg.json" "rg -il $word" >&2
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$out/list-quire.json" "$QUIRE list tag:work draft:true --paths" >&2
    latency=$("$QUIRE" index --bench-queries 2>&1 || true)
    # The largest of three cold peaks (they move by a megabyte or two from run to run).
    rss_cold=$(for run in 1 2 3; do peak_rss "$QUIRE" index --rebuild; done | sort -n | tail -1)
    sync
    rss_search=$(peak_rss "$QUIRE" search "$word" --paths)
    hits_quire=$("$QUIRE" search "$word" --paths | wc -l)
    hits_rg=$(rg -il "$word" | wc -l)
    # A search right after editing one note (a note of the script's own, removed at the end).
    edited="$vault/Inbox/bench-edited.md"
    printf -- '---\ntitle: Edited by the benchmark\n---\nfirst line\n' > "$edited"
    "$QUIRE" index >/dev/null
    hyperfine --warmup 1 --runs "$RUNS" --prepare "echo another line >> '$edited'" \
        --export-json "$out/edit-search.json" "$QUIRE search $word --paths" >&2
    # The same warm commands with `quire watch` running (rg measured again beside them).
    "$QUIRE" watch start >/dev/null
    hyperfine --warmup 1 --runs "$RUNS" --prepare "echo another line >> '$edited'" \
        --export-json "$out/edit-search-watch.json" "$QUIRE search $word --paths" >&2
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$out/search-watch.json" "$QUIRE search $word --paths" >&2
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$out/search-rg2.json" "rg -il $word" >&2
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$out/list-watch.json" "$QUIRE list tag:work draft:true --paths" >&2
    rss_watch=$(peak_rss "$QUIRE" search "$word" --paths)
    hits_watch=$("$QUIRE" search "$word" --paths | wc -l)
    "$QUIRE" watch stop >/dev/null
    rm -f "$edited"
    "$QUIRE" index >/dev/null
    # Established engines building a positional index of the same notes, for scale (tantivy if
    # its Python package is installed, SQLite FTS5 always; see reference-indexers.py).
    reference=$(python3 "$here/reference-indexers.py" "$vault" 3 2>&1 || true)

    python3 - "$size" "$bytes" "$word" "$out" "$latency" "$rss_cold" "$rss_search" "$hits_quire" "$hits_rg" "$rss_watch" "$hits_watch" "$reference" <<'PY'
import json, re, sys
size, md_bytes, word, out, latency, rss_cold, rss_search, hits_quire, hits_rg, rss_watch, hits_watch, reference = sys.argv[1:]
def mean(name):
    try:
        return json.load(open(f"{out}/{name}.json"))["results"][0]["mean"] * 1000
    except (OSError, KeyError, IndexError, ValueError):
        return float("nan")
def number(label):
    found = re.search(label + r"[^0-9]*([0-9.]+)", latency)
    return float(found.group(1)) if found else float("nan")
md_mb = int(md_bytes) / 1e6
def mb(kib):  # /usr/bin/time reports KiB
    return int(kib) * 1024 / 1e6
def engine(name):
    found = re.search(r"^" + name + r" ([0-9.]+) ms", reference, re.M)
    return float(found.group(1)) if found else None
cold, rg_count = mean("cold-quire"), mean("cold-rg")
search, rg_search = mean("search-quire"), mean("search-rg")
listing = mean("list-quire")
watch_search, rg_search2, watch_list = mean("search-watch"), mean("search-rg2"), mean("list-watch")
target_search = 0.5 if int(size) <= 10000 else 0.2
print(f"\n### {int(size):,} notes ({md_mb:.0f} MB of Markdown)\n")
print("| measurement | quire | baseline | ratio | target |")
print("| --- | ---: | ---: | ---: | --- |")
print(f"| cold `quire index --rebuild` vs `rg -c .` | {cold:.0f} ms | {rg_count:.0f} ms | {cold / rg_count:.2f}× | ≤ 3× |")
print(f"| warm `quire search {word} --paths` vs `rg -il {word}` | {search:.0f} ms | {rg_search:.0f} ms | {search / rg_search:.2f}× | ≤ {target_search}× |")
print(f"| warm `quire list tag:work draft:true --paths` | {listing:.0f} ms | | | |")
print(f"| warm search with `quire watch` running vs `rg -il {word}` | {watch_search:.0f} ms | {rg_search2:.0f} ms | {watch_search / rg_search2:.2f}× | ≤ {target_search}× |")
print(f"| warm list with `quire watch` running | {watch_list:.0f} ms | | | |")
print(f"| search right after editing one note: without / with `quire watch` | {mean('edit-search'):.0f} / {mean('edit-search-watch'):.0f} ms | | | |")
print(f"| in-process query p50 / p99 (`quire index --bench-queries`) | {number('p50'):.2f} / {number('p99'):.2f} ms | | | p99 ≤ 5 ms |")
print(f"| peak RSS, cold rebuild (largest of three) | {mb(rss_cold):.1f} MB | {md_mb:.1f} MB of notes | {mb(rss_cold) / md_mb:.2f}× | ≤ 2× |")
print(f"| peak RSS, warm search | {mb(rss_search):.1f} MB | {md_mb:.1f} MB of notes | {mb(rss_search) / md_mb:.2f}× | ≤ 2× |")
print(f"| peak RSS, warm search with `quire watch` | {mb(rss_watch):.1f} MB | {md_mb:.1f} MB of notes | {mb(rss_watch) / md_mb:.2f}× | ≤ 2× |")
for name, label in (("tantivy", "tantivy (Rust, from Python)"), ("sqlite-fts5", "SQLite FTS5")):
    took = engine(name)
    if took is None:
        print(f"| for scale: {label} builds a positional index of the notes, already read | not run | | | |")
    else:
        print(f"| for scale: {label} builds a positional index of the notes, already read, vs `rg -c .` | {took:.0f} ms | {rg_count:.0f} ms | {took / rg_count:.2f}× | |")
print(f"| notes found: quire / quire with watch / rg (rg also counts front matter and case variants) | {hits_quire} / {hits_watch} | {hits_rg} | | |")
PY
done
