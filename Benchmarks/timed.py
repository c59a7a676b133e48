#!/usr/bin/env python3
"""Runs a command (its output discarded) and prints its wall time and CPU time (user + system,
all its threads and children) in milliseconds, to the microsecond: `/usr/bin/time` gives only
hundredths of a second, too coarse for runs of a few hundred milliseconds; then the peak
resident set of the largest process it ran, in KiB. The peak comes from GNU time, which starts
the command: a process forked from Python would count Python's own memory (Linux keeps the
largest resident set a process had before its exec).

    Benchmarks/timed.py COMMAND...      prints "WALL CPU RSS" (RSS 0 without /usr/bin/time)
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

if len(sys.argv) < 2:
    sys.exit("usage: timed.py COMMAND...")
command = sys.argv[1:]
peak_file = None
if os.access("/usr/bin/time", os.X_OK):
    handle, peak_file = tempfile.mkstemp(prefix="timed-")
    os.close(handle)
    command = ["/usr/bin/time", "-f", "%M", "-o", peak_file] + command
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter()
subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
peak = 0
if peak_file:
    with open(peak_file) as handle:
        lines = [line.strip() for line in handle if line.strip().isdigit()]
    peak = int(lines[-1]) if lines else 0
    os.remove(peak_file)
print(f"{wall * 1000:.1f} {cpu * 1000:.1f} {peak}")
