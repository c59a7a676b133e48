#!/usr/bin/env python3
"""Language-server benchmark: `quire lsp` on a generated vault (issue 17).

usage: Benchmarks/lsp.py [--size N] [--quire PATH] [--dir DIR] [--requests R]
       Benchmarks/lsp.py --ready-only --vault DIR [--quire PATH] [--baseline PATH] [--rounds K]

Measures, on a vault of N notes made by Benchmarks/gen-vault (reused from DIR):
  - ready time: from starting `quire lsp` to the `initialize` answer, and to the answer of the
    first `workspace/symbol` sent right after it (the catalog opened and the note directory
    built), with the cached snapshot present and without it (cold), next to `quire index` (a
    command's catalog load) and `quire index --rebuild` (a cold catalog load);
  - resident memory (VmRSS) of the server after that first answer, after the completion burst
    and after the workspace-symbol burst;
With --ready-only, only ready time and memory on an existing, indexed vault (--vault; never
written), K rounds alternating with --baseline (another `quire`) when given, with the load
average beside each round: RSS when ready, after a typical session (open a note, complete a
link, hover it, prepare a rename, a few edits, workspace symbols), and after 50 completions and
50 workspace symbols, with the anonymous part (/proc/PID/smaps_rollup) beside the last.
  - completion latency (request sent to answer read) for `[[` + 1–4 typed letters, `#` + tag
    letters, and workspace symbols, R requests each: p50, p99, max.
Prints a Markdown table; copy it to Docs/benchmarks.md. Not run by `make test`.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


class Client:
    """`quire lsp` as a subprocess, spoken to over pipes."""

    def __init__(self, quire, root):
        env = dict(os.environ, QUIRE_NOW="2026-11-29T12:00:00Z", QUIRE_DEVICE="bench", TZ="UTC")
        self.process = subprocess.Popen([quire, "lsp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env)
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=10)


def timed(command, cwd):
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def ready(quire, root):
    """Seconds from start to the initialize answer, and the client."""
    start = time.perf_counter()
    client = Client(quire, root)
    client.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
    elapsed = time.perf_counter() - start
    client.notify("initialized", {})
    return elapsed, client


def rss_mb(client):
    """The server's resident memory (VmRSS) in MB."""
    with open(f"/proc/{client.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def ready_and_loaded(quire, root):
    """Seconds to the initialize answer and to the first workspace/symbol answer, the RSS then."""
    start = time.perf_counter()
    elapsed, client = ready(quire, root)
    client.request("workspace/symbol", {"query": "a"})
    loaded = time.perf_counter() - start
    return elapsed, loaded, rss_mb(client), client


def memory_mb(client):
    """The server's resident memory and its anonymous part (/proc/PID/smaps_rollup), in MB."""
    fields = {}
    with open(f"/proc/{client.process.pid}/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 3 and parts[2] == "kB":
                fields[parts[0].rstrip(":")] = int(parts[1]) / 1024
    return fields.get("Rss", float("nan")), fields.get("Anonymous", float("nan"))


def typical_session(client, root):
    """Opens a note with a link, completes a link, hovers the link, prepares a rename, edits, and
    asks for workspace symbols (nothing is saved)."""
    note = None
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(d for d in folders if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    text = handle.read()
                if "[[" in text:
                    note = (os.path.join(folder, name), text)
                    break
        if note:
            break
    path, text = note
    uri = "file://" + path
    lines = text.split("\n")
    line = next(index for index, content in enumerate(lines) if "[[" in content)
    character = lines[line].index("[[") + 3
    at = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    client.request("textDocument/hover", at)
    client.request("textDocument/prepareRename", at)
    for version in range(2, 7):
        text += "\nmore [[a" + "b" * version
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
        last = text.split("\n")
        client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                  "position": {"line": len(last) - 1, "character": len(last[-1])}})
    client.request("workspace/symbol", {"query": "note"})
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def ready_only(args):
    """Ready time and memory on an existing vault, alternating with a baseline binary."""
    root = os.path.realpath(args.vault)
    binaries = [("this", os.path.realpath(args.quire))]
    if args.baseline:
        binaries.append(("baseline", os.path.realpath(args.baseline)))
    print("| round | binary | initialize answered | first workspace/symbol answered | RSS then | RSS after a session "
          "| RSS after 50 completions | RSS after 50 workspace/symbol (anonymous) | load average |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    rng = random.Random(35)
    letters = "abdefgiklmnoprstuvz"
    for round_number in range(1, args.rounds + 1):
        for name, quire in (binaries if round_number % 2 else binaries[::-1]):
            load = "%.1f %.1f %.1f" % os.getloadavg()
            elapsed, loaded, rss, client = ready_and_loaded(quire, root)
            typical_session(client, root)
            session, _ = memory_mb(client)
            uri = "file://" + os.path.join(root, "bench-scratch.md")  # a buffer only, never saved
            client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": ""}})
            for version in range(2, 52):
                line = "[[" + "".join(rng.choice(letters) for _ in range(rng.randint(1, 4)))
                client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                        "contentChanges": [{"text": line}]})
                client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                          "position": {"line": 0, "character": len(line)}})
            completed, _ = memory_mb(client)
            for _ in range(50):
                client.request("workspace/symbol", {"query": "".join(rng.choice(letters) for _ in range(rng.randint(1, 4)))})
            after, anonymous = memory_mb(client)
            client.stop()
            print(f"| {round_number} | {name} | {elapsed * 1000:.0f} ms | {loaded * 1000:.0f} ms | {rss:.0f} MB | {session:.0f} MB "
                  f"| {completed:.0f} MB | {after:.0f} MB ({anonymous:.0f}) | {load} |", flush=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--quire", default=os.path.join(REPO, ".build/release/quire"))
    parser.add_argument("--dir", default="/tmp/quire-bench")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--ready-only", action="store_true")
    parser.add_argument("--vault")
    parser.add_argument("--baseline")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    if args.ready_only:
        return ready_only(args)
    root = os.path.join(args.dir, f"lsp-{args.size}")
    if not os.path.isdir(root):
        subprocess.run([os.path.join(HERE, "gen-vault"), str(args.size), root], check=True)
    root = os.path.realpath(root)
    quire = os.path.realpath(args.quire)

    rows = []
    cache = os.path.join(root, ".quire/cache")
    rebuild = min(timed([quire, "index", "--rebuild"], root) for _ in range(3))
    load = min(timed([quire, "index"], root) for _ in range(5))
    rows.append(("`quire index --rebuild` (cold catalog load)", f"{rebuild * 1000:.0f} ms"))
    rows.append(("`quire index` (catalog load, snapshot fresh)", f"{load * 1000:.0f} ms"))
    warm = []
    for _ in range(5):
        warm.append(ready_and_loaded(quire, root))
        warm[-1][3].stop()
    rows.append(("`quire lsp` ready (initialize answered), snapshot fresh (best of 5)", f"{min(w[0] for w in warm) * 1000:.0f} ms"))
    rows.append(("`quire lsp` first `workspace/symbol` answered, snapshot fresh (best of 5)",
                 f"{min(w[1] for w in warm) * 1000:.0f} ms, RSS {min(w[2] for w in warm):.0f} MB"))
    cold = []
    for _ in range(3):
        shutil.rmtree(cache, ignore_errors=True)
        elapsed, client = ready(quire, root)
        cold.append(elapsed)
        client.stop()
    rows.append(("`quire lsp` ready, no snapshot (best of 3)", f"{min(cold) * 1000:.0f} ms"))

    _, _, _, client = ready_and_loaded(quire, root)
    uri = "file://" + os.path.join(root, "bench-scratch.md")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": ""}})
    rng = random.Random(17)
    letters = "abdefgiklmnoprstuvz"
    version = 1

    def measure(make_line, method="textDocument/completion"):
        nonlocal version
        times = []
        for _ in range(args.requests):
            line = make_line()
            version += 1
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                    "contentChanges": [{"text": line}]})
            params = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": len(line)}}
            if method == "workspace/symbol":
                params = {"query": line}
            start = time.perf_counter()
            client.request(method, params)
            times.append((time.perf_counter() - start) * 1000)
        return times

    for label, times in [
        ("completion `[[` + 1–4 letters", measure(lambda: "[[" + "".join(rng.choice(letters) for _ in range(rng.randint(1, 4))))),
        ("completion `#` + 0–2 letters", measure(lambda: "see #" + "".join(rng.choice("wihgms") for _ in range(rng.randint(0, 2))))),
        ("workspace symbols, 1–4 letters", measure(lambda: "".join(rng.choice(letters) for _ in range(rng.randint(1, 4))), "workspace/symbol")),
    ]:
        rows.append((label, f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms"))
        rows.append((f"RSS after: {label}", f"{rss_mb(client):.0f} MB"))
    client.stop()

    print(f"### `quire lsp`, {args.size:,} notes\n")
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    sys.exit(main())
