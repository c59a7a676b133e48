#!/usr/bin/env python3
"""Runs a command (its output discarded) and prints its wall time and CPU time (user + system,
all its threads and children) in milliseconds, to the microsecond: `/usr/bin/time` gives only
hundredths of a second, too coarse for runs of a few hundred milliseconds.

    Benchmarks/timed.py COMMAND...      prints "WALL CPU"
"""
import os
import resource
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit("usage: timed.py COMMAND...")
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"{wall * 1000:.1f} {cpu * 1000:.1f}")
