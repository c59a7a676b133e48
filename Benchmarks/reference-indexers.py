#!/usr/bin/env python3
"""Cold index builds of established full-text engines over a vault, for scale.

    python3 Benchmarks/reference-indexers.py VAULT [RUNS]

Reads every note of VAULT (`*.md` outside `.git`, `.quire` and hidden folders) and builds, from
nothing, a positional full-text index of each note's whole text (front matter included, not
parsed) with:

- tantivy (Rust; the `tantivy` package from PyPI), default tokenizer, positions, a writer
  with one thread per core — if the package is installed;
- SQLite FTS5 (Python's own sqlite3), `unicode61 remove_diacritics 2`, one transaction.

Both do less than `quire index --rebuild` (no YAML, no metadata columns, no CJK n-grams, no
forward index), and here the files are read into memory first, untimed (Python's own walk and
reads are slow, and would hide the engines): the times bound from below what building a
positional index costs. Prints the time to read the files, then one line per engine: the median
wall time of RUNS builds (default 5) from the texts in memory (for tantivy: its documents
already made, Python's own work) to the committed index, and the CPU time of that build (all
threads of the process: on a machine shared with other work, wall times say little). The index
goes to a temporary directory on the same disk as the vault and is removed.
"""
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time


def notes(vault):
    for folder, dirs, files in os.walk(vault):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def read_all(vault):
    texts = []
    for path in notes(vault):
        with open(path, "rb") as handle:
            texts.append((os.path.relpath(path, vault), handle.read().decode("utf-8", "replace")))
    return texts


def tantivy_build(texts, scratch):
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("path", stored=True, tokenizer_name="raw")
    builder.add_text_field("body", stored=False, index_option="position")
    schema = builder.build()
    index = tantivy.Index(schema, path=scratch)
    writer = index.writer(heap_size=200_000_000, num_threads=os.cpu_count() or 1)
    documents = [tantivy.Document(path=path, body=text) for path, text in texts]  # Python's part
    start, cpu = time.perf_counter(), time.process_time()
    for document in documents:
        writer.add_document(document)
    writer.commit()
    writer.wait_merging_threads()
    return time.perf_counter() - start, time.process_time() - cpu


def fts5_build(texts, scratch):
    start, cpu = time.perf_counter(), time.process_time()
    connection = sqlite3.connect(os.path.join(scratch, "fts.db"))
    connection.execute("PRAGMA journal_mode=OFF")
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute(
        "CREATE VIRTUAL TABLE notes USING fts5(path UNINDEXED, body, tokenize='unicode61 remove_diacritics 2')")
    with connection:
        connection.executemany("INSERT INTO notes VALUES (?, ?)", texts)
    connection.close()
    return time.perf_counter() - start, time.process_time() - cpu


def median_seconds(build, texts, vault, runs):
    """The median wall time and the median CPU time of `runs` builds, in seconds."""
    times = []
    cpu_times = []
    for _ in range(runs):
        scratch = tempfile.mkdtemp(prefix="quire-ref-", dir=os.path.dirname(os.path.abspath(vault)))
        try:
            wall, cpu = build(texts, scratch)
            times.append(wall)
            cpu_times.append(cpu)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return statistics.median(times), statistics.median(cpu_times)


def fail(message, code=2):
    print(message, file=sys.stderr)
    sys.exit(code)


def main():
    usage = ("usage: reference-indexers.py VAULT [RUNS] [--tantivy-only]   (RUNS: a positive number of builds, "
             "default 5; --tantivy-only: no SQLite FTS5, for a turn of Benchmarks/rebuild-cpu.sh)")
    args = [arg for arg in sys.argv[1:] if arg != "--tantivy-only"]
    tantivy_only = len(args) != len(sys.argv) - 1
    if len(args) not in (1, 2) or args[0] in ("-h", "--help"):
        fail(usage)
    vault = args[0]
    if not os.path.isdir(vault):
        fail(f"reference-indexers.py: error: no folder at {vault}\n{usage}")
    if len(args) == 2 and not (args[1].isdigit() and int(args[1]) > 0):
        fail(f"reference-indexers.py: error: RUNS must be a positive number, not {args[1]!r}\n{usage}")
    runs = int(args[1]) if len(args) == 2 else 5
    start = time.perf_counter()
    texts = read_all(vault)
    if not texts:
        fail(f"reference-indexers.py: error: no notes (*.md) in {vault}", code=1)
    print(f"read {(time.perf_counter() - start) * 1000:.0f} ms ({len(texts)} notes, Python)")
    try:
        import tantivy  # noqa: F401
        wall, cpu = median_seconds(tantivy_build, texts, vault, runs)
        print(f"tantivy {wall * 1000:.0f} ms (cpu {cpu * 1000:.0f} ms)")
    except ImportError:
        print("tantivy not installed (pip install tantivy)")
    if tantivy_only:
        return
    wall, cpu = median_seconds(fts5_build, texts, vault, runs)
    print(f"sqlite-fts5 {wall * 1000:.0f} ms (cpu {cpu * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
