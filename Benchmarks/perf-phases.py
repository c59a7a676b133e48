#!/usr/bin/env python3
"""Where a cold rebuild's CPU time goes, by phase, from a perf profile.

    perf record -g -F 2000 -o rebuild.perf quire index --rebuild
    perf script -i rebuild.perf > rebuild.script
    python3 Benchmarks/perf-phases.py rebuild.script

Each sample goes to the phase of the frame nearest the leaf on its stack whose symbol names
one (malloc or retain under a phase counts for that phase); the rest is listed as "other" with
its commonest leaves. Docs/benchmarks.md "The cold rebuild" shows the result.
"""
import sys, re, collections
phases = [  # leaf-most match wins
 ("yaml/frontmatter", ["YAMLReader", "YAMLTreeBuilder", "readFrontMatter", "TOMLReader"]),
 ("fields", ["NoteFields"]),
 ("links scan", ["LinkExtractor"]),
 ("words", ["WordCounter"]),
 ("tags", ["inlineTags", "TagReader", "tagsOfLine"]),
 ("utf8 check", ["UTF8Text"]),
 ("body walk (fused)", ["readBody"]),
 ("link terms", ["linkTerms", "nameKey"]),
 ("attribute terms", ["Attribute"]),
 ("tokenize+terms", ["Tokenizer", "appendField", "appendToken", "appendTerm", "lookUpPending", "TermTable"]),
 ("records", ["finishDocument", "BinaryWriter", "NoteRecordC", "NoteRecordV"]),
 ("segment build", ["SegmentBuilder", "SlicePlaces", "SnapshotFile", "TermTable"]),
 ("parse other", ["NoteParser"]),
 ("read file/hash", ["readFile", "ContentHash", "FileStamp"]),
 ("history dates", ["HistoryDates", "HistoryWalk"]),
 ("walk", ["VaultWalker", "FolderListings"]),
]
counts = collections.Counter(); total = 0
stack = []
def flush():
    global total
    if not stack: return
    total += 1
    for frame in stack:  # leaf first
        for name, keys in phases:
            if any(k in frame for k in keys):
                counts[name] += 1; return
    counts["other: " + (stack[0][:60] if stack else "?")] += 1
for line in open(sys.argv[1], errors="replace"):
    if not line.strip():
        flush(); stack = []; continue
    if line.startswith("\t") or line.startswith(" "):
        parts = line.split()
        if len(parts) >= 2: stack.append(parts[1])
    else:
        stack = []
flush()
other = sum(v for k, v in counts.items() if k.startswith("other"))
for k, v in counts.most_common():
    if not k.startswith("other"): print(f"{100*v/total:5.1f}%  {k}")
print(f"{100*other/total:5.1f}%  other (kernel, malloc, retain/release outside the phases above)")
top = [(k,v) for k,v in counts.most_common() if k.startswith("other")][:12]
for k,v in top: print(f"    {100*v/total:5.1f}% {k}")
print("samples", total)
