#!/usr/bin/env python3
"""Many-device soak of the sync daemon: K devices (separate clones) each run `quire watch run
--sync` against one bare repository, reached by its path from half the devices and through a
git daemon on loopback (git://) from the other half (`--remote path` or `--remote git`: all one
way). For MINUTES the driver appends unique tokens (`tok-NNNNN-D-NNNN`, recorded in a ledger)
to shared notes, which every device edits, and to each device's own note, as an editor saves
(a new file renamed over the old, under the vault lock so that the simulated editor never saves
a buffer its daemon replaced meanwhile); kills daemons with SIGKILL at random and restarts them
a few seconds later; and, with a git daemon in play, stops the server now and then for a while
(the devices on git:// back off).

Then every daemon is restarted if down, the daemons are given time to converge by themselves,
get SIGTERM (each must exit 0), the devices converge with plain syncs, and the chaos driver's
check runs (Benchmarks/chaos/chaos.py: git fsck, clean work trees, one conflict list, fresh
catalogs, and every token in the converged vault or in a losing version `quire conflicts show`
prints). The daemons' logs give the figures: cycles, pushes, push rejections (a push the remote
refused because another device's landed first: each extra attempt within a cycle, and cycles
that gave up after their attempts) and retries, and the waits before retrying after a failure
(backoff with jitter: spread between half and all of the doubling ceiling).

    python3 Benchmarks/daemon-soak.py                       8 devices, 10 minutes, mixed remotes
    python3 Benchmarks/daemon-soak.py --devices 10 --minutes 15 --seed 7
    python3 Benchmarks/daemon-soak.py --devices 3 --seconds 60     the short run of the test suite

Prints one line of figures (`name=value`), then a readable summary. Exit code 0 when the devices
converged with nothing lost and every daemon stopped cleanly; 1 otherwise (the problems, the
folder kept and the command that reproduces the run are printed).
"""
import argparse
import fcntl
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left beside the chaos driver
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "chaos"))
import chaos  # noqa: E402  (the chaos driver: ledger, convergence and the no-loss check)

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_SCRIPT = os.path.join(PACKAGE, "Tests", "Servers", "git-server.sh")
SHARED_NOTES = 3


class Soak(chaos.Chaos):
    def __init__(self, args):
        # The chaos driver's options this run uses: no edge shapes, daemons on, its own seed.
        args.edges = 0.0
        args.hostile = 0.0
        args.daemons = True
        args.namesakes = False
        super().__init__(args)
        self.args = args
        self.edits = 0
        self.skipped_edits = 0
        self.kills = 0
        self.outages = 0
        self.daemons = {}
        self.down = {}            # device name -> time to restart
        self.server = None
        self.url = None
        self.port = None

    # ---- set-up ------------------------------------------------------------------------------
    def start_server(self):
        for _ in range(5):
            port = self.port or self.rng.randint(20000, 40000)
            result = subprocess.run(["sh", SERVER_SCRIPT, "start", "daemon", self.server, str(port)],
                                    capture_output=True, text=True, stdin=subprocess.DEVNULL)
            if result.returncode == 0:
                self.port = port
                return result.stdout.strip()
            if self.port:
                time.sleep(1)
        raise chaos.Failure("the git daemon did not start: %s" % result.stderr)

    def stop_server(self):
        subprocess.run(["sh", SERVER_SCRIPT, "stop", self.server], capture_output=True)

    def remote_for(self, device):
        kind = self.args.remote
        if kind == "mixed":
            kind = "path" if device.index % 2 == 0 else "git"
        return self.url if kind == "git" else self.remote

    def setup(self):
        # A private copy of the binary, so that a rebuild during the soak neither stops nor changes it.
        shutil.copy2(self.binary, os.path.join(self.root, "quire"))
        self.binary = os.path.join(self.root, "quire")
        if self.args.remote != "path":
            self.server = os.path.join(self.root, "server")
            os.makedirs(os.path.join(self.server, "repos"))
            self.remote = os.path.join(self.server, "repos", "vault.git")
            base = self.start_server()
            self.url = base + "vault.git"
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", self.remote], check=True)
        for index in range(self.args.devices):
            home = os.path.join(self.root, "home%d" % index)
            os.makedirs(home)
            self.devices.append(chaos.Device(index, os.path.join(self.root, "dev%d" % index), home))
        first = self.devices[0]
        subprocess.run([self.binary, "init", first.path], env=self.env(first), check=True, capture_output=True)
        for number in range(SHARED_NOTES):
            self.write_note(first, "shared-%d.md" % number, "shared-%d" % number, "Shared %d" % number)
        self.quire(first, "remote", self.remote_for(first))
        self.quire(first, "sync")
        for device in self.devices[1:]:
            subprocess.run([self.binary, "clone", self.remote_for(device), device.path], cwd=self.root,
                           env=self.env(device), check=True, capture_output=True)
        for device in self.devices:
            self.write_note(device, "own-%s.md" % device.name, "own-%s" % device.name, "Own of %s" % device.name)
            with open(os.path.join(device.path, ".quire", "local", "config.yml"), "a") as handle:
                handle.write("syncBackoffStart: %s\n" % self.args.backoff_start)

    def write_note(self, device, name, note_id, title):
        text = "---\nid: %s\ntitle: %s\nupdatedAt: 2026-11-29T12:00:00Z\n---\n# %s\n\n" % (note_id, title, title)
        with open(os.path.join(device.path, name), "w") as handle:
            handle.write(text)

    # ---- daemons -----------------------------------------------------------------------------
    def log_path(self, device):
        return os.path.join(self.root, "%s-daemon.log" % device.name)

    def start_daemon(self, device):
        env = self.env(device)
        env["QUIRE_NOW"] = ""  # the daemons' timers and stamps run on the real clock
        log = open(self.log_path(device), "a")
        self.daemons[device.name] = subprocess.Popen(
            [self.binary, "watch", "run", "--sync", "--debounce", str(self.args.debounce),
             "--fetch-interval", str(self.args.fetch_interval), "--max-backoff", str(self.args.max_backoff)],
            cwd=device.path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        log.close()

    def kill_one(self, now):
        running = [d for d in self.devices if d.name not in self.down]
        if len(running) <= 1:
            return
        device = self.rng.choice(running)
        self.daemons[device.name].send_signal(signal.SIGKILL)
        self.daemons[device.name].wait()
        self.kills += 1
        self.down[device.name] = now + self.rng.uniform(1, self.args.restart_delay)
        self.log("%s: daemon killed (SIGKILL)" % device.name)

    def restart_due(self, now, everyone=False):
        for device in self.devices:
            if device.name in self.down and (everyone or self.down[device.name] <= now):
                del self.down[device.name]
                self.start_daemon(device)
                self.log("%s: daemon restarted" % device.name)

    # ---- edits -------------------------------------------------------------------------------
    def new_token(self, device):
        self.counter += 1
        return "tok-%05d-%d-%04d" % (self.counter // 10000, device.index, self.counter % 10000)

    def append_token(self, device):
        """An editor's save of a note with one more line, under the vault lock: a daemon cycle is
        never running while the driver reads and replaces the file (a cycle that would start
        meanwhile is skipped and tried again by the daemon)."""
        name = "own-%s.md" % device.name if self.rng.random() < self.args.own_share \
            else "shared-%d.md" % self.rng.randrange(SHARED_NOTES)
        path = os.path.join(device.path, name)
        lock = open(os.path.join(device.path, ".quire", "local", "lock"), "a")
        try:
            deadline = time.time() + 10
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.time() > deadline:
                        self.skipped_edits += 1
                        return
                    time.sleep(0.02)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            token = self.new_token(device)
            temporary = os.path.join(device.path, ".soak-tmp")
            with open(temporary, "w", encoding="utf-8") as handle:
                handle.write(text + ("" if text.endswith("\n") else "\n") + "- %s from %s\n" % (token, device.name))
            os.replace(temporary, path)
            self.record(token, "append", name, device)
            self.edits += 1
        finally:
            lock.close()  # releases the lock

    # ---- the run -----------------------------------------------------------------------------
    def run(self):
        for device in self.devices:
            self.start_daemon(device)
        started = time.time()
        deadline = started + self.args.seconds
        next_outage = started + self.rng.uniform(*self.args.outage_every) if self.server else None
        outage_ends = None
        while time.time() < deadline:
            now = time.time()
            self.round = int((now - started) // 60) + 1
            self.restart_due(now)
            if outage_ends and now >= outage_ends:
                self.start_server()
                outage_ends = None
                next_outage = now + self.rng.uniform(*self.args.outage_every)
                self.log("the git daemon is back")
            elif next_outage and not outage_ends and now >= next_outage:
                self.stop_server()
                self.outages += 1
                outage_ends = now + self.rng.uniform(*self.args.outage_length)
                self.log("the git daemon stopped")
            if self.rng.random() < self.args.kill_rate * self.args.edit_interval:
                self.kill_one(now)
            self.append_token(self.rng.choice(self.devices))
            time.sleep(self.rng.expovariate(1 / self.args.edit_interval))
        if outage_ends:
            self.start_server()
        self.restart_due(time.time(), everyone=True)
        self.stats["edit_seconds"] = round(time.time() - started)
        return self.settle()

    def settle(self):
        """The daemons converge by themselves (every head at the remote's, every tree equal), then
        stop on SIGTERM; plain syncs and the chaos driver's check follow."""
        problems = []
        waited = time.time()
        converged = None
        while time.time() - waited < self.args.settle:
            remote_head = self.git("--git-dir", self.remote, "rev-parse", "refs/heads/main").stdout.strip()
            heads = [self.git("rev-parse", "HEAD", cwd=d.path).stdout.strip() for d in self.devices]
            if all(head == remote_head for head in heads):
                trees = [self.tree(d) for d in self.devices]
                if all(tree == trees[0] for tree in trees):
                    converged = round(time.time() - waited, 1)
                    break
            time.sleep(1)
        self.stats["daemons_converged_seconds"] = converged if converged is not None else -1
        for device in self.devices:
            problems += self.stop_daemon(device)
        self.round += 1
        tree = self.converge()
        problems += self.check(tree)
        self.stats["converged_identical_trees"] = 1
        return problems

    # ---- figures -----------------------------------------------------------------------------
    def figures(self):
        cycles = ok = failed = committed_here = skipped = pushes = 0
        rejections = in_cycle_retries = gave_up = 0
        waits = []
        results = {}
        for device in self.devices:
            with open(self.log_path(device), encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    if " sync ok: " in line:
                        cycles += 1
                        ok += 1
                        pushes += " pushed " in line
                        attempts = re.search(r"(\d+) push attempts", line)
                        if attempts:
                            rejections += int(attempts.group(1)) - 1
                            in_cycle_retries += int(attempts.group(1)) - 1
                    elif " committed here: " in line:
                        cycles += 1
                        committed_here += 1
                    elif " sync skipped: " in line:
                        skipped += 1
                    elif re.search(r"Z sync (?!ok|skipped|interrupted)", line):
                        cycles += 1
                        failed += 1
                        result = re.search(r"Z sync ([a-z ]+?):", line)
                        results[result.group(1) if result else "?"] = results.get(result.group(1) if result else "?", 0) + 1
                        kept = re.search(r"kept rejecting the push \((\d+) attempts\)", line)
                        if kept:
                            rejections += int(kept.group(1))
                            in_cycle_retries += int(kept.group(1)) - 1
                            gave_up += 1
                        wait = re.search(r"trying again in ([0-9.]+) s", line)
                        if wait:
                            waits.append(float(wait.group(1)))
        self.stats.update({"devices": len(self.devices), "edits": self.edits, "skipped_edits": self.skipped_edits,
                           "daemon_kills": self.kills, "server_outages": self.outages, "cycles": cycles,
                           "cycles_ok": ok, "cycles_failed": failed, "cycles_committed_during_backoff": committed_here,
                           "cycles_skipped": skipped, "pushes": pushes, "push_rejections": rejections,
                           "push_retries_in_cycle": in_cycle_retries, "cycles_gave_up_pushing": gave_up,
                           "backoff_retries": len(waits), "lost": self.stats.get("losses", 0)})
        self.failure_results = results
        self.waits = waits
        # The chaos driver's figures this run has no use for.
        for name in ("case_collisions", "concurrent_syncs", "edge_operations", "edits_during_sync", "failed_syncs",
                     "faults", "file_to_folder", "kills", "losses", "normalization_pairs", "operations", "rounds",
                     "unicode_folders"):
            self.stats.pop(name, None)

    def summary(self):
        s = self.stats
        lines = ["daemon soak: %d devices (%s remote), %.1f minutes of edits, seed %d" % (
                     s["devices"], self.args.remote, s["edit_seconds"] / 60, self.args.seed),
                 "edits:              %d appended tokens (%d skipped: vault lock busy)" % (s["edits"], s["skipped_edits"]),
                 "daemon kills:       %d SIGKILL, each restarted; git daemon outages: %d" % (s["daemon_kills"], s["server_outages"]),
                 "daemon cycles:      %d (%d ok, %d failed %s, %d committed during a backoff, %d skipped)" % (
                     s["cycles"], s["cycles_ok"], s["cycles_failed"],
                     dict(sorted(self.failure_results.items())), s["cycles_committed_during_backoff"], s["cycles_skipped"]),
                 "pushes:             %d cycles pushed; %d push rejections (another device's push first), "
                 "%d retried in the cycle, %d cycles gave up and backed off" % (
                     s["pushes"], s["push_rejections"], s["push_retries_in_cycle"], s["cycles_gave_up_pushing"])]
        if self.waits:
            distinct = len({round(w, 1) for w in self.waits})
            lines.append("backoff retries:    %d, waits %.1f–%.1f s (median %.1f, %d distinct values to 0.1 s)" % (
                len(self.waits), min(self.waits), max(self.waits), statistics.median(self.waits), distinct))
        else:
            lines.append("backoff retries:    0")
        lines.append("convergence:        daemons alone in %s s; %d plain sync passes; trees byte-identical" % (
            s["daemons_converged_seconds"], s.get("converge_passes", 0)))
        lines.append("tokens lost:        %d of %d (each present in the vault or in a losing version of quire conflicts: %d listed)" % (
            s["lost"], s["tokens"], s.get("conflicts", 0)))
        return "\n".join(lines)

    def reproduction(self):
        a = self.args
        return "python3 Benchmarks/daemon-soak.py --binary %s --seed %d --devices %d --seconds %d --remote %s --keep" % (
            a.binary, a.seed, a.devices, a.seconds, a.remote)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/quire")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seconds", type=int, default=0, help="instead of --minutes")
    parser.add_argument("--remote", choices=["mixed", "path", "git"], default="mixed")
    parser.add_argument("--edit-interval", type=float, default=0.25, help="mean seconds between edits (all devices)")
    parser.add_argument("--own-share", type=float, default=0.4, help="share of edits to a device's own note")
    parser.add_argument("--kill-rate", type=float, default=0.1, help="daemon SIGKILLs per second")
    parser.add_argument("--restart-delay", type=float, default=8, help="seconds, at most, before a killed daemon restarts")
    parser.add_argument("--debounce", type=float, default=1)
    parser.add_argument("--fetch-interval", type=float, default=5)
    parser.add_argument("--backoff-start", type=float, default=2)
    parser.add_argument("--max-backoff", type=float, default=30)
    parser.add_argument("--outage-every", type=float, nargs=2, default=[60, 150], help="seconds between git daemon outages")
    parser.add_argument("--outage-length", type=float, nargs=2, default=[8, 25], help="seconds of each outage")
    parser.add_argument("--settle", type=float, default=240, help="seconds the daemons get to converge by themselves")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    args.seconds = args.seconds or int(args.minutes * 60)
    soak = Soak(args)
    started = time.time()
    try:
        soak.setup()
        problems = soak.run()
    except chaos.Failure as failure:
        problems = [str(failure)]
    finally:
        for process in soak.daemons.values():
            if process.poll() is None:
                process.kill()
                process.wait()
        if soak.server:
            soak.stop_server()
    soak.stats["seconds"] = round(time.time() - started, 1)
    soak.stats["tokens"] = len(soak.ledger)
    soak.stats.setdefault("edit_seconds", 0)
    soak.stats.setdefault("daemons_converged_seconds", -1)
    soak.figures()
    print(" ".join("%s=%s" % item for item in sorted(soak.stats.items())))
    print(soak.summary())
    if args.keep and not problems:
        print("kept in %s" % soak.root)
    return chaos.conclude(soak, problems, args.seed, args.keep)


if __name__ == "__main__":
    sys.exit(main())
