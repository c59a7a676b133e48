#!/usr/bin/env python3
"""Chaos driver for `quire sync`: K devices share one bare repository by path, do random edits,
sync in random order (sometimes two at once, sometimes with an injected fault or a SIGKILL,
which now and then leaves a lock file on a reference as a kill inside a reference update does),
then converge and check that nothing was lost.

Every write carries a unique token `tok-RRRRR-D-NNNN` recorded in a ledger with its note id and
kind. After the final sync rounds a token must be in the final tree, or be accounted for:
  deleted     -- a device removed the note while its local file held the token (`quire rm`);
  superseded  -- a device overwrote the `chaos:` key (or removed the tag) while its local file
                 held the token (causal: concurrent overwrites are not "superseded");
  conflict    -- the token is in a losing version printed by `quire conflicts show ID`.
Body edits insert a line or a word inside a line (never superseded) — often in the last lines of a
note, so that devices edit the same line (different words, or one place) and adjacent lines;
attachments are append-only.

Modes:  chaos (default) -- random rounds;  --faults -- every QUIRE_FAULT point, throwing and
`:kill`, each followed by a normal sync, convergence and the ledger check.

--edges P adds the shapes that broke sync at the edges of git, the file system and the clock
(issue 13), each chosen with weight P beside the ordinary operations:
  symlink / link-to-note / note-to-link -- tracked symlinks made, replaced by a real note, a
                 plain note replaced by a link (its text counts as deleted, like `quire rm`);
  unicode      -- notes from a small pool of accented names, written precomposed (NFC) or
                 decomposed (NFD, as macOS writes), so two devices collide under NFC; now and
                 then one device writes both forms side by side (two files on Linux);
  file-folder  -- `ProjectsN` made as a file on one device and as a folder of notes on another;
  nested-repo  -- a folder with its own `.git` (never synced; left out of the comparison);
  config       -- a line added to `.gitignore`, a key added to `.obsidian/app.json`;
  git-commit   -- an edit committed with the git CLI between syncs (a line appended, or a word
                 inside one of the last lines: `updatedAt` untouched, the commit time dates it).
--hostile P adds what another device can sync to make this one leak or write where nothing syncs
(issue 32; hostile.py says which), each chosen with weight P, checked after convergence;
and with --edges the last device runs with `core.autocrlf=true` and the devices' clocks are
skewed (one an hour behind, one ten minutes ahead). Trees are compared with CRLF read as LF.
--daemons runs a sync daemon (`quire watch run --sync`, short intervals, the real clock) on every
device: the rounds' operations happen while the daemons sync by themselves (no scheduled syncs);
now and then a `quire sync` by hand runs beside a daemon (it must succeed: it waits for the
daemon's cycle). Then every daemon gets SIGTERM (each must exit 0), the devices converge with
plain syncs, and the ledger is checked as above; the figures add the daemons' cycles.
--encrypted makes the shared repository an encrypted remote (`quire remote URL --encrypt`, the
devices join with `quire clone` and the passphrase): every mode and shape runs over it; the
published tree checked is the decrypted `origin/main` every device converged on, and the host's
objects, inflated, must hold no token, note name or `chaos:` key.
Exit code 0 when converged with no loss; 1 otherwise (the report says why and how to reproduce).
"""
import argparse
import datetime
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

import hostile

FAULT_POINTS = ["after-stamp", "after-commit", "before-fetch", "after-fetch", "during-merge",
                "before-checkout", "before-ref-update", "before-push", "after-push"]
FOLDERS = ["", "Drafts", "Journal", "Archive/2026"]
BASE_TIME = datetime.datetime(2026, 11, 29, 12, 0, 0, tzinfo=datetime.timezone.utc)
EXCLUDED = (".git", ".quire/local", ".quire/cache")
TOKEN = re.compile(r"tok-\d{5}-\d+-\d{4}")
EXIT_LOCKED = 7
UNICODE_NAMES = ["Résumé %d.md", "Café crème %d.md", "Übersicht %d.md"]
CASE_NAMES = ["plan", "inbox", "ideen"]   # written lower, Capitalized or UPPER: one file on macOS
PASSPHRASE = "chaos driver passphrase"
CLOCK_SKEW = [0, 600, -3600]   # seconds: device index modulo 3 (ahead, behind) under --edges


EDGE_OPERATIONS = ("unicode", "case", "file-folder", "config", "git-commit", "symlink", "link-to-note", "note-to-link",
                   "nested-repo")


class Failure(Exception):
    pass


class Raced(Exception):
    """--daemons: an operation chose a note its device's daemon moved or removed meanwhile."""


class Device:
    def __init__(self, index, path, home):
        self.index = index
        self.name = "dev%d" % index
        self.path = path
        self.home = home


class Chaos:
    failure_type = Failure

    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.rng = random.Random(args.seed)
        self.root = tempfile.mkdtemp(prefix="quire-chaos-%d-" % args.seed)
        self.remote = os.path.join(self.root, "remote.git")
        self.clock = 0
        self.round = 0
        self.counter = 0
        self.ledger = {}          # token -> {"kind", "note", "device", "round"}
        self.deleted = set()
        self.superseded = set()
        self.stats = {"rounds": 0, "operations": 0, "edge_operations": 0, "normalization_pairs": 0, "case_collisions": 0, "file_to_folder": 0, "unicode_folders": 0, "syncs": 0, "failed_syncs": 0, "concurrent_syncs": 0,
                      "faults": 0, "kills": 0, "edits_during_sync": 0, "conflicts": 0, "losses": 0,
                      "converge_passes": 0, "locks_left": 0, "shapes_during_sync": 0, "kept_beside_folders": 0,
                      "namesake_warnings": 0}
        self.false_namesakes = []  # namesake warnings where every device has a name of its own
        self.devices = []
        self.log_lines = []

    # ---- running quire -------------------------------------------------------------------
    def now(self, device=None):
        skew = CLOCK_SKEW[device.index % len(CLOCK_SKEW)] if device is not None and self.args.edges else 0
        return BASE_TIME + datetime.timedelta(seconds=self.clock + skew)

    def tick(self):
        self.clock += self.rng.randint(1, 90)

    def env(self, device, fault=None):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": device.home, "TZ": "UTC",
               "LANG": "C.UTF-8", "NO_COLOR": "1", "GIT_CONFIG_NOSYSTEM": "1",
               "QUIRE_DEVICE": "laptop" if self.args.namesakes else device.name, "QUIRE_NOW": self.now(device).strftime("%Y-%m-%dT%H:%M:%SZ")}
        if fault:
            env["QUIRE_FAULT"] = fault
        if self.encrypted:
            env["QUIRE_PASSPHRASE"] = PASSPHRASE
            env["QUIRE_PASSPHRASE_COST"] = "interactive"
        return env

    @property
    def encrypted(self):
        """Whether the devices share an encrypted remote (`--encrypted`; drivers built on this
        one, such as daemon-soak.py, may not have the option)."""
        return getattr(self.args, "encrypted", False)

    def published(self):
        """The git directory and ref of what the devices publish: the remote's `main`, or over an
        encrypted remote the decrypted `origin/main` of the first device (the host holds only the
        sealed carrier)."""
        if self.encrypted:
            return os.path.join(self.devices[0].path, ".git"), "refs/remotes/origin/main"
        return self.remote, "refs/heads/main"

    def log(self, text):
        self.log_lines.append("r%d t%d %s" % (self.round, self.clock, text))
        if self.args.verbose:
            print(self.log_lines[-1], flush=True)

    def quire(self, device, *arguments, check=True, fault=None):
        result = subprocess.run([self.binary] + list(arguments), cwd=device.path, env=self.env(device, fault),
                                capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0 and self.args.daemons and (
                "no note matches" in result.stderr or "(no such file)" in result.stderr):
            raise Raced(result.stderr.strip().splitlines()[0])
        if check and result.returncode != 0:
            raise Failure("%s: quire %s exited %d\n%s%s" % (device.name, " ".join(arguments), result.returncode,
                                                           result.stdout, result.stderr))
        return result

    def start_sync(self, device, fault=None):
        return subprocess.Popen([self.binary, "sync", "--json"], cwd=device.path, env=self.env(device, fault),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    # ---- vault files ---------------------------------------------------------------------
    def notes(self, device):
        """Relative paths of the notes in a device's work tree, sorted."""
        found = []
        for directory, folders, files in os.walk(device.path):
            relative = os.path.relpath(directory, device.path)
            folders[:] = sorted(f for f in folders if not f.startswith(".") and not f.startswith("nested-"))
            for name in sorted(files):
                if name.endswith(".md") and not os.path.islink(os.path.join(directory, name)):
                    found.append(os.path.normpath(os.path.join(relative, name)))
        return found

    @staticmethod
    def read(path):
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace").replace("\r\n", "\n")

    def write_as_editor(self, path, text, device=None):
        """An external editor's save: a new file renamed over the old (a symlink there is replaced,
        not followed), mtime = the simulated clock of the device."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = os.path.join(os.path.dirname(path), ".chaos-tmp")
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        stamp = self.now(device).timestamp()
        os.utime(temporary, (stamp, stamp))
        try:
            os.replace(temporary, path)
        except OSError:
            os.unlink(temporary)  # a failed save leaves no temporary file behind
            raise

    def unchanged(self, path, text):
        """--daemons: an editor saving a buffer read before its daemon updated the file would be
        the user's own revert, not the sync's doing: a careful editor notices and reloads. The
        operation is dropped (Raced) when the file no longer holds what was read."""
        if self.args.daemons and (not os.path.exists(path) or self.read(path) != text):
            raise Raced("%s changed since it was read" % os.path.relpath(path, self.root))

    @staticmethod
    def split(text):
        """(front matter lines, body lines) of a note; front matter None when there is none."""
        lines = text.split("\n")
        if lines and lines[0] == "---":
            for index in range(1, len(lines)):
                if lines[index] == "---":
                    return lines[1:index], lines[index + 1:]
        return None, lines

    def note_id(self, text):
        front, _ = self.split(text)
        for line in front or []:
            if line.startswith("id:"):
                return line[3:].strip().strip("'\"")
        return None

    def new_token(self, device):
        self.counter += 1
        return "tok-%05d-%d-%04d" % (self.round, device.index, self.counter % 10000)

    def record(self, token, kind, note, device):
        self.ledger[token] = {"kind": kind, "note": note, "device": device.name, "round": self.round}

    # ---- operations ----------------------------------------------------------------------
    def operate(self, device):
        self.tick()
        notes = self.notes(device)
        choices = [("create", 3), ("create-editor", 1), ("attach", 1), ("create-long", 1)]
        if notes:
            choices += [("append-editor", 5), ("word-editor", 4), ("key-quire", 3), ("key-editor", 2), ("tag", 2), ("untag", 1),
                        ("move", 1), ("rename", 1), ("delete", 1), ("attach-edit", 1)]
        if self.args.edges > 0:
            weight = self.args.edges
            choices += [(name, weight) for name in ("unicode", "case", "file-folder", "config", "git-commit", "symlink",
                                                    "link-to-note", "note-to-link", "nested-repo")]
        if self.args.hostile > 0:
            # Without create-long: the check exports every device, and a page's name (a note's
            # name near 255 bytes, plus `.html`) can be too long for the file system.
            choices = [c for c in choices if c[0] != "create-long"]
            choices += [(name, self.args.hostile) for name in hostile.operations()]
        operation = self.rng.choices([c[0] for c in choices], [c[1] for c in choices])[0]
        if operation in hostile.operations():
            token = self.new_token(device)
            self.stats["operations"] += 1
            self.stats["hostile_operations"] = self.stats.get("hostile_operations", 0) + 1
            self.log("%s %s %s" % (device.name, operation, token))
            return hostile.operate(self, device, operation, token)
        if operation in EDGE_OPERATIONS:
            token = self.new_token(device)
            self.stats["operations"] += 1
            self.stats["edge_operations"] += 1
            self.log("%s %s %s" % (device.name, operation, token))
            return self.operate_edge(device, operation, token)
        note = self.rng.choice(notes) if notes else None
        full = os.path.join(device.path, note) if note else None
        text = self.read(full) if note else ""
        identity = self.note_id(text) if note else None
        token = self.new_token(device)
        if self.args.hostile and operation in ("tag", "untag") and hostile.holds_odd_value(text):
            # quire tag refuses tags it cannot rewrite without loss (hostile.py, odd-value).
            return self.operate_fallback(device, token)
        self.stats["operations"] += 1
        shown = note if note and operation not in ("create", "create-editor", "attach") else ""
        self.log("%s %s %s %s" % (device.name, operation, shown, token))
        if operation == "create":
            folder = self.rng.choice(FOLDERS)
            arguments = ["new", "Note %s" % token[4:], "--body", token]
            if folder:
                arguments += ["--folder", folder]
            path = self.quire(device, *arguments).stdout.strip().splitlines()[-1]
            created = os.path.join(device.path, path)
            self.record(token, "body", self.note_id(self.read(created)), device)
        elif operation == "create-editor":
            # A note written by another app: half without front matter (never stamped; commit
            # times decide its merges), half with a hand-written one and no updatedAt.
            folder = self.rng.choice(FOLDERS)
            path = os.path.join(device.path, folder, "plain-%s.md" % token[4:])
            if self.rng.random() < 0.5:
                self.write_as_editor(path, "# Plain %s\n\n%s\n" % (token[4:], token), device)
            else:
                self.write_as_editor(path, "---\ntitle: Hand %s\n---\n%s\n" % (token[4:], token), device)
            self.record(token, "body", None, device)
        elif operation == "create-long":
            # A name of 255 bytes, the limit, the same for every device in a round: when two add
            # it before syncing, the suffix the sync gives one would pass the limit (it is
            # shortened, with a hash).
            path = os.path.join(device.path, "\u00fc" * 122 + "-long-%02d.md" % (self.round % 100))
            if os.path.exists(path):
                self.write_as_editor(path, self.read(path) + token + "\n")
            else:
                self.write_as_editor(path, "---\ntitle: Long\n---\n%s\n" % token)
            self.record(token, "body", self.note_id(self.read(path)), device)
        elif operation == "attach":
            # Under --edges every other attachment is binary to git (a nul byte): the sync once
            # wrote such files empty and pushed the empty file (no random draw: seeds stay as they were).
            binary = "\0binary\n" if self.args.edges and int(token[-1]) % 2 else ""
            self.write_as_editor(os.path.join(device.path, "attachments", token + ".txt"), token + "\n" + binary, device)
            self.record(token, "attachment", None, device)
        elif operation == "attach-edit":
            folder = os.path.join(device.path, "attachments")
            names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
            if not names:
                return self.operate_fallback(device, token)
            target = os.path.join(folder, self.rng.choice(names))
            before = self.read(target)
            self.unchanged(target, before)
            self.write_as_editor(target, before + token + "\n", device)
            self.record(token, "attachment", None, device)
        elif operation == "append-editor":
            front, body = self.split(text)
            position = self.rng.randint(0, len(body))
            body.insert(position, token)
            updated = ("---\n" + "\n".join(front) + "\n---\n" if front is not None else "") + "\n".join(body)
            self.unchanged(full, text)
            self.write_as_editor(full, updated, device)
            self.record(token, "body", identity, device)
        elif operation == "word-editor":
            # A word added inside a line, as a writer edits (issue 31): half the time in one of the
            # last three lines, so that devices edit the same line (different words, or the same
            # place) and adjacent lines often. Nothing is removed: every token stays or loses.
            front, body = self.split(text)
            lines = [index for index, line in enumerate(body) if line.strip()]
            if not lines:
                return self.operate_fallback(device, token)
            index = self.rng.choice(lines[-3:] if self.rng.random() < 0.5 else lines)
            words = body[index].split(" ")
            words.insert(self.rng.randint(0, len(words)), token)
            body[index] = " ".join(words)
            updated = ("---\n" + "\n".join(front) + "\n---\n" if front is not None else "") + "\n".join(body)
            self.unchanged(full, text)
            self.write_as_editor(full, updated, device)
            self.record(token, "body", identity, device)
            self.stats["word_edits"] = self.stats.get("word_edits", 0) + 1
        elif operation in ("key-quire", "key-editor"):
            front, body = self.split(text)
            if front is None:
                return self.operate_fallback(device, token)
            previous = [line for line in front if line.startswith("chaos:")]
            for line in previous:
                self.superseded.update(TOKEN.findall(line))
            self.unchanged(full, text)
            if operation == "key-quire":
                self.quire(device, "set", note, "chaos=" + token)
            else:
                front = [line for line in front if not line.startswith("chaos:")] + ["chaos: " + token]
                self.write_as_editor(full, "---\n" + "\n".join(front) + "\n---\n" + "\n".join(body), device)
            self.record(token, "key", identity, device)
        elif operation == "tag":
            self.quire(device, "tag", note, "+" + token)
            self.record(token, "tag", identity, device)
        elif operation == "untag":
            front, _ = self.split(text)
            tags = sorted(set(TOKEN.findall("\n".join(line for line in front or [] if not line.startswith("chaos:")))))
            if not tags:
                return self.operate_fallback(device, token)
            removed = self.rng.choice(tags)
            self.superseded.add(removed)
            self.quire(device, "tag", note, "-" + removed)
        elif operation == "move":
            self.quire(device, "mv", note, self.rng.choice(FOLDERS) or "/")
        elif operation == "rename":
            self.quire(device, "rename", note, "Renamed %s" % token[4:])
        elif operation == "delete":
            # Deliberately deleted: what the device had of the note, on disk and in its HEAD (a
            # kept edit not merged yet shows the user an older text than HEAD's).
            self.unchanged(full, text)
            self.deleted.update(TOKEN.findall(text))
            self.deleted.update(TOKEN.findall(self.git("show", "HEAD:" + note, cwd=device.path).stdout))
            self.quire(device, "rm", note)
            if self.args.daemons:
                # The daemon may have updated the note in the instant between the read above and
                # the removal: what the device's last commits held of it was deleted too.
                history = self.git("log", "-3", "-p", "--format=", "--", note, cwd=device.path).stdout
                self.deleted.update(TOKEN.findall(history))

    def operate_fallback(self, device, token):
        """Appends a body line as an editor would (also the edit made while a sync runs): like a
        careful editor, it saves only if the file did not change on disk since it was read, and
        reloads otherwise (a stale buffer saved over a sync's update is the user's own revert)."""
        notes = self.notes(device)
        if not notes:
            return
        note = self.rng.choice(notes)
        full = os.path.join(device.path, note)
        for _ in range(50):
            try:
                before = os.stat(full)
                text = self.read(full)
            except FileNotFoundError:
                return self.log("%s append %s: the file went away" % (device.name, note))
            temporary = os.path.join(os.path.dirname(full), ".chaos-tmp")
            with open(temporary, "w", encoding="utf-8") as handle:
                handle.write(text + ("" if text.endswith("\n") else "\n") + token + "\n")
            stamp = self.now(device).timestamp()
            os.utime(temporary, (stamp, stamp))
            try:
                after = os.stat(full)
            except FileNotFoundError:
                after = None
            if after and (after.st_ino, after.st_mtime_ns, after.st_size) == \
                    (before.st_ino, before.st_mtime_ns, before.st_size):
                os.replace(temporary, full)
                break
            os.unlink(temporary)
        else:
            return
        self.record(token, "body", self.note_id(text), device)
        self.log("%s append %s %s" % (device.name, note, token))

    def operate_file_folder(self, device, path, token, carried, attempt):
        """One try of the file-folder shape at `path` (Projects0 or Projects1): a note in the
        folder, the file turned into a folder, an edit of the file, or a new file or folder.
        `carried`: the text of the file a failed earlier try removed, saved again with the token.
        A save that fails raises with the text to carry set on the error."""
        plan = os.path.join(path, "plan-%s.md" % token[4:])
        if os.path.isdir(path) and not os.path.islink(path):
            self.write_as_editor(plan, "# Plan\n\n%s%s\n" % (carried, token), device)
            self.record(token, "body", None, device)
        elif os.path.isfile(path) and not os.path.islink(path) and int(token[-1]) % 2 == 0 and not carried:
            # The file replaced by a folder of its name, its text moved into a note there (no
            # random draw: seeds stay as they were). Staging it once stopped every sync.
            text = self.read(path)
            os.remove(path)
            try:
                self.write_as_editor(plan, "# Plan\n\n%s%s\n" % (text, token), device)
            except OSError as race:
                race.carried = text
                raise
            self.record(token, "body", None, device)
            self.stats["file_to_folder"] += 1
        elif os.path.isfile(path) and not os.path.islink(path):
            self.write_as_editor(path, self.read(path) + carried + token + "\n", device)
            self.record(token, "attachment", None, device)
        elif (self.rng.random() if attempt == 0 else 0.0) < 0.5 or carried:
            self.write_as_editor(path, carried + token + "\n", device)
            self.record(token, "attachment", None, device)
        else:
            self.write_as_editor(plan, "# Plan\n\n%s\n" % token, device)
            self.record(token, "body", None, device)

    # ---- edge shapes (--edges) ------------------------------------------------------------
    def operate_edge(self, device, operation, token):
        root = device.path
        if operation == "unicode":
            # A name from a small pool, precomposed or decomposed: another device may hold the same
            # name in the other form. An existing file equal under NFC is edited instead, or now
            # and then a new note is written beside it in the other form (a Linux device can hold
            # both: two files, two notes to the catalog, one name on macOS).
            name = self.rng.choice(UNICODE_NAMES) % self.rng.randint(0, 1)
            form = self.rng.choice(["NFC", "NFD"])
            if int(token[-1]) % 3 == 0:
                # The name as a folder, holding `inside.md` (no random draw: seeds stay as they
                # were): two devices make it in two forms, one folder on macOS. The device that
                # fast-forwarded once never converged. This device keeps to the form it has.
                stem = name[:-3]
                folders = [n for n in os.listdir(root) if unicodedata.normalize("NFC", n) == stem
                           and os.path.isdir(os.path.join(root, n)) and not os.path.islink(os.path.join(root, n))]
                if any(unicodedata.normalize("NFC", n) == stem and n not in folders for n in os.listdir(root)):
                    return self.operate_fallback(device, token)  # a file or link of that name
                path = os.path.join(root, folders[0] if folders else unicodedata.normalize(form, stem), "inside.md")
                if os.path.isfile(path) and not os.path.islink(path):
                    self.write_as_editor(path, self.read(path).rstrip("\n") + "\n" + token + "\n", device)
                else:
                    self.write_as_editor(path, "# %s\n\n%s\n" % (stem, token), device)
                self.stats["unicode_folders"] += 1
                self.record(token, "body", None, device)
                return
            existing = [n for n in os.listdir(root) if unicodedata.normalize("NFC", n) == name
                        and not os.path.islink(os.path.join(root, n))]
            other = {unicodedata.normalize("NFD", name), name} - set(existing)
            if len(existing) == 1 and other and self.rng.random() < 0.5:
                path = os.path.join(root, sorted(other)[0])
                self.write_as_editor(path, "# %s\n\n%s\n" % (name[:-3], token), device)
                self.stats["normalization_pairs"] += 1
                # The catalog holds both at once (no sync of this device runs now, unless a daemon does).
                if not self.args.daemons:
                    problems = self.catalog_problems(device)
                    if problems:
                        raise Failure("beside a name equal under NFC: " + "; ".join(problems))
            elif existing:
                path = os.path.join(root, existing[0])
                self.write_as_editor(path, self.read(path).rstrip("\n") + "\n" + token + "\n", device)
            else:
                path = os.path.join(root, unicodedata.normalize(form, name))
                self.write_as_editor(path, "# %s\n\n%s\n" % (name[:-3], token), device)
            self.record(token, "body", None, device)
        elif operation == "case":
            # A name from a small pool in one of three letter cases: `plan.md` here, `Plan.md` on
            # another device (as quire and Obsidian name files) is one file on macOS and Windows.
            # A name this device holds in any case is edited instead, so no device ever makes
            # such a pair by itself: one in the converged tree was made by a merge (`check`).
            stem = self.rng.choice(CASE_NAMES)
            name = self.rng.choice([stem, stem.capitalize(), stem.upper()]) + ".md"
            existing = [n for n in os.listdir(root) if n.lower() == name.lower()
                        and os.path.isfile(os.path.join(root, n)) and not os.path.islink(os.path.join(root, n))]
            if existing:
                path = os.path.join(root, existing[0])
                self.write_as_editor(path, self.read(path).rstrip("\n") + "\n" + token + "\n", device)
            elif any(n.lower() == name.lower() for n in os.listdir(root)):
                return self.operate_fallback(device, token)  # a folder or link of that name
            else:
                path = os.path.join(root, name)
                self.write_as_editor(path, "# %s\n\n%s\n" % (name[:-3], token), device)
            self.record(token, "body", None, device)
        elif operation == "file-folder":
            name = "Projects%d" % self.rng.randint(0, 1)
            path = os.path.join(root, name)
            # While a sync runs (--shapes-during-sync) it may turn the path into a folder or a file
            # between the look and the save: the editor's save then fails (IsADirectoryError, …)
            # and the user saves again into what is there now, carrying the text of a file they
            # had already moved out of the way (no random draw on the first try: seeds stay).
            carried = ""
            for attempt in range(5):
                try:
                    self.operate_file_folder(device, path, token, carried, attempt)
                    break
                except (IsADirectoryError, NotADirectoryError, FileExistsError, FileNotFoundError) as race:
                    carried = getattr(race, "carried", carried)
                    self.stats["raced_shapes"] = self.stats.get("raced_shapes", 0) + 1
                    self.log("%s file-folder save raced with the sync: %s" % (device.name, race))
            else:
                if carried:
                    raise Failure("%s: the file-folder shape could not save %s's text after five tries" % (device.name, path))
        elif operation == "config":
            if self.rng.random() < 0.5:
                path = os.path.join(root, ".gitignore")
                text = self.read(path) if os.path.exists(path) else ""
                self.write_as_editor(path, text + ("" if text.endswith("\n") or not text else "\n")
                                     + "*.ignored-%s\n" % token, device)
            else:
                path = os.path.join(root, ".obsidian", "app.json")
                try:
                    settings = json.loads(self.read(path))
                except (OSError, ValueError):
                    settings = {}
                if not isinstance(settings, dict):
                    settings = {}
                settings[token] = True
                self.write_as_editor(path, json.dumps(settings, indent=2, sort_keys=True) + "\n", device)
            self.record(token, "config", None, device)
        elif operation == "git-commit":
            # An edit committed with the git CLI between two syncs (quire's stamping is skipped).
            notes = self.notes(device)
            if not notes:
                return self.operate_fallback(device, token)
            note = self.rng.choice(notes)
            full = os.path.join(root, note)
            text = self.read(full)
            front, body = self.split(text)
            lines = [index for index, line in enumerate(body) if line.strip()]
            if lines and self.rng.random() < 0.5:
                # A word inside a line (the plain-git teammate's later edit wins by commit time).
                index = self.rng.choice(lines[-3:])
                words = body[index].split(" ")
                words.insert(self.rng.randint(0, len(words)), token)
                body[index] = " ".join(words)
                edited = ("---\n" + "\n".join(front) + "\n---\n" if front is not None else "") + "\n".join(body)
            else:
                edited = text + ("" if text.endswith("\n") else "\n") + token + "\n"
            self.write_as_editor(full, edited, device)
            self.record(token, "body", self.note_id(text), device)
            self.git("add", "-A", cwd=root)
            committed = self.git("-c", "user.name=cli", "-c", "user.email=cli@example.invalid",
                                 "commit", "-q", "-m", "edited with the git CLI", cwd=root)
            self.log("%s git commit exit %d %s" % (device.name, committed.returncode, committed.stderr.strip()[:120]))
        elif operation == "symlink":
            notes = [n for n in self.notes(device) if os.path.dirname(n) == ""]
            if not notes:
                return self.operate_fallback(device, token)
            os.symlink(self.rng.choice(notes), os.path.join(root, "link-%s.md" % token[4:]))
        elif operation == "link-to-note":
            links = sorted(n for n in os.listdir(root) if n.startswith("link-") and os.path.islink(os.path.join(root, n)))
            if not links:
                return self.operate_fallback(device, token)
            self.write_as_editor(os.path.join(root, self.rng.choice(links)), "# Was a link\n\n%s\n" % token, device)
            self.record(token, "body", None, device)
        elif operation == "note-to-link":
            plain = [n for n in self.notes(device) if os.path.dirname(n) == "" and n.startswith("plain-")]
            others = [n for n in self.notes(device) if os.path.dirname(n) == "" and n not in plain]
            if not plain or not others:
                return self.operate_fallback(device, token)
            victim = self.rng.choice(plain)
            full = os.path.join(root, victim)
            self.deleted.update(TOKEN.findall(self.read(full)))
            self.deleted.update(TOKEN.findall(self.git("show", "HEAD:" + victim, cwd=root).stdout))
            os.unlink(full)
            os.symlink(self.rng.choice(others), full)
        elif operation == "nested-repo":
            folder = os.path.join(root, "nested-%s" % device.name)
            if os.path.exists(folder):
                return self.operate_fallback(device, token)
            os.makedirs(folder)
            subprocess.run(["git", "init", "-q", folder], check=True, capture_output=True)
            with open(os.path.join(folder, "inside.md"), "w", encoding="utf-8") as handle:
                handle.write("# Inside a nested repository\n")

    # ---- syncing -------------------------------------------------------------------------
    def finish(self, device, process, expect_kill=False):
        out, err = process.communicate(timeout=180)
        self.stats["syncs"] += 1
        if process.returncode != 0:
            self.stats["failed_syncs"] += 1
            self.log("%s sync exit %d %s" % (device.name, process.returncode, err.strip().splitlines()[:1]))
        if process.returncode == 0:
            try:
                report = json.loads(out)
                self.stats["kept_beside_folders"] += sum(
                    1 for line in report.get("merged", []) if line.endswith("(the file was saved while the sync ran)"))
                if report.get("namesake"):
                    # Every device has a name of its own unless --namesakes: a warning then is false.
                    self.stats["namesake_warnings"] += 1
                    if not self.args.namesakes:
                        self.false_namesakes.append("%s: %s" % (device.name, report["namesake"]))
                self.log("%s sync ok: %s merged=%d conflicts=%d kept=%s" % (
                    device.name, report.get("integration"), len(report.get("merged", [])),
                    len(report.get("conflicts", [])), report.get("keptUserEdits", [])))
            except ValueError:
                pass
        return process.returncode

    def sync_round(self):
        chosen = [d for d in self.devices if self.rng.random() < self.args.sync_probability]
        self.rng.shuffle(chosen)
        index = 0
        while index < len(chosen):
            self.tick()
            if index + 1 < len(chosen) and self.rng.random() < self.args.concurrent_probability:
                pair = chosen[index:index + 2]
                index += 2
                self.stats["concurrent_syncs"] += 1
                self.log("concurrent sync %s" % " ".join(d.name for d in pair))
                processes = [(d, self.start_sync(d, self.random_fault())) for d in pair]
                for device, process in processes:
                    self.finish(device, process)
                continue
            device = chosen[index]
            index += 1
            self.one_sync(device)

    def random_fault(self):
        if self.rng.random() >= self.args.fault_probability:
            return None
        self.stats["faults"] += 1
        return self.rng.choice(FAULT_POINTS) + self.rng.choice(["", ":kill"])

    def one_sync(self, device):
        fault = self.random_fault()
        process = self.start_sync(device, fault)
        if fault:
            self.log("%s sync with QUIRE_FAULT=%s" % (device.name, fault))
        roll = self.rng.random()
        killed = False
        if roll < self.args.kill_probability:
            time.sleep(self.rng.uniform(0, self.args.kill_delay))
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                killed = True
                self.stats["kills"] += 1
                self.log("%s sync killed" % device.name)
        elif roll < self.args.kill_probability + self.args.edit_during_sync_probability:
            time.sleep(self.rng.uniform(0, self.args.kill_delay))
            if process.poll() is None:
                self.stats["edits_during_sync"] += 1
                if self.args.shapes_during_sync > 0 and self.rng.random() < self.args.shapes_during_sync:
                    # A file where another device's folder may be arriving, or a note in the
                    # folder where its file may be (the file-and-folder shape, at the worst moment).
                    self.stats["shapes_during_sync"] += 1
                    token = self.new_token(device)
                    self.stats["operations"] += 1
                    self.operate_edge(device, "file-folder", token)
                else:
                    self.operate_fallback(device, self.new_token(device))
                self.log("%s edited during sync" % device.name)
        self.finish(device, process)
        if killed and self.rng.random() < 0.3:
            self.leave_lock(device)

    def leave_lock(self, device):
        """What a sync killed inside a reference update leaves (a kill rarely lands there by
        chance): a lock file on the remote's branch, on a staging reference in the remote, or on
        one of the device's backups. The syncs after it must clear it and go on: a lock that
        blocks the convergence fails the batch (Docs/guarantees.md, "lock files left by a
        killed sync")."""
        staging = "%08x-%04x-4%03x-%04x-%012x" % tuple(self.rng.getrandbits(bits) for bits in (32, 16, 12, 16, 48))
        choices = [os.path.join(self.remote, "refs", "heads", "main.lock"),
                   os.path.join(self.remote, "refs", "quire", "incoming", staging + ".lock")]
        backups = os.path.join(device.path, ".git", "refs", "quire", "backup")
        names = sorted(name for name in os.listdir(backups) if not name.endswith(".lock")) if os.path.isdir(backups) else []
        if names:
            choices.append(os.path.join(backups, self.rng.choice(names) + ".lock"))
        path = self.rng.choice(choices)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "a").close()
        self.stats["locks_left"] += 1
        self.log("%s killed sync left %s" % (device.name, os.path.relpath(path, self.root)))

    # ---- checks --------------------------------------------------------------------------
    def tree(self, device):
        """{relative path: bytes} of a work tree, without .git, .quire/local and .quire/cache."""
        files = {}
        for directory, folders, names in os.walk(device.path):
            relative = os.path.relpath(directory, device.path)
            folders[:] = [f for f in folders if os.path.normpath(os.path.join(relative, f)) not in EXCLUDED
                          and f != ".test-home" and not (relative == "." and f.startswith("nested-"))]
            for name in names:
                if self.args.hostile and hostile.is_scratch(name):
                    continue  # an editor's scratch file stays on its device, never synced
                path = os.path.normpath(os.path.join(relative, name))
                full = os.path.join(directory, name)
                if os.path.islink(full):
                    files[path] = b"link -> " + os.readlink(full).encode()
                    continue
                with open(full, "rb") as handle:
                    data = handle.read()
                # A device with core.autocrlf=true keeps CRLF in its work tree; git stores LF.
                files[path] = data.replace(b"\r\n", b"\n") if self.args.edges else data
        return files

    def git(self, *arguments, cwd=None):
        return subprocess.run(["git"] + list(arguments), cwd=cwd or self.root, capture_output=True, text=True,
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.root,
                                   "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C.UTF-8"})

    def catalog_problems(self, device):
        """The catalog (`quire list --paths`, proven fresh by a walk with its folder-listings and
        ignore-verdicts caches) against the work tree: the notes git does not ignore
        (`git ls-files -co --exclude-standard`), less symlinks, hidden and nested-repository paths."""
        listed = self.git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=device.path).stdout
        expected = set()
        for path in listed.split("\0"):
            parts = path.split("/")
            if not path.lower().endswith(".md") or any(part.startswith(".") for part in parts) \
                    or parts[0].startswith("nested-"):
                continue
            full = os.path.join(device.path, path)
            # Symlinks (and paths through them) are listed by quire under the link's name.
            if any(os.path.islink(os.path.join(device.path, *parts[:depth])) for depth in range(1, len(parts) + 1)) \
                    or not os.path.isfile(full):
                continue
            expected.add(path)  # by its bytes: names equal under NFC are two files here
        result = self.quire(device, "list", "--paths", check=False)
        if result.returncode != 0:
            return ["%s: quire list failed: %s" % (device.name, result.stderr.strip())]
        shown = set()
        for path in result.stdout.splitlines():
            parts = path.split("/")
            if any(os.path.islink(os.path.join(device.path, *parts[:depth])) for depth in range(1, len(parts) + 1)) \
                    or parts[0].startswith("nested-"):
                continue
            shown.add(path)
        if shown == expected:
            return []
        return ["%s: the catalog disagrees with the work tree: missing %s, extra %s" % (
            device.name, sorted(expected - shown)[:10], sorted(shown - expected)[:10])]

    def converge(self):
        """Syncs every device in turn until all succeed, all heads equal the remote's, all trees match."""
        remote_head = None
        for attempt in range(1, 9):
            self.stats["converge_passes"] = attempt
            codes = []
            for device in self.devices:
                self.tick()
                result = self.quire(device, "sync", "--json", check=False)
                self.stats["syncs"] += 1
                codes.append(result.returncode)
                if result.returncode != 0:
                    self.stats["failed_syncs"] += 1
                    self.log("converge: %s sync exit %d %s" % (device.name, result.returncode, result.stderr.strip()))
                    if result.returncode == EXIT_LOCKED:
                        raise Failure("%s: the lock blocked a sync after a crash:\n%s" % (device.name, result.stderr))
            git_dir, ref = self.published()
            remote_head = self.git("--git-dir", git_dir, "rev-parse", ref).stdout.strip()
            heads = [self.git("rev-parse", "HEAD", cwd=d.path).stdout.strip() for d in self.devices]
            trees = [self.tree(d) for d in self.devices]
            if all(code == 0 for code in codes) and all(h == remote_head for h in heads) \
                    and all(t == trees[0] for t in trees):
                return trees[0]
        raise Failure("no convergence after %d passes: exit codes %s, heads %s, remote %s; differing files %s" % (
            attempt, codes, heads, remote_head, self.differences(trees)))

    @staticmethod
    def differences(trees):
        paths = set()
        for tree in trees[1:]:
            for path in set(tree) | set(trees[0]):
                if tree.get(path) != trees[0].get(path):
                    paths.add(path)
        return sorted(paths)[:20]

    def check(self, tree):
        problems = []
        fsck = self.git("--git-dir", self.remote, "fsck", "--no-progress")
        if fsck.returncode != 0 or "error" in fsck.stderr or "missing" in fsck.stdout + fsck.stderr:
            problems.append("git fsck on the remote: %s%s" % (fsck.stdout, fsck.stderr))
        for device in self.devices:
            status = self.git("status", "--porcelain", cwd=device.path)
            # A nested repository is never synced: it stays untracked on its own device.
            leftover = [line for line in status.stdout.splitlines() if not line[3:].startswith("nested-")
                        and not (self.args.hostile and line.startswith("?? ") and hostile.is_scratch(os.path.basename(line[3:])))]
            if leftover:
                problems.append("%s: work tree not clean after converging:\n%s" % (device.name, status.stdout))
        git_dir, ref = self.published()
        listed = self.git("--git-dir", git_dir, "ls-tree", "-r", "--name-only", "-z", ref).stdout
        for path in listed.split("\0"):
            name = os.path.basename(path)
            if ".quire-tmp" in name or name.endswith(".chaos-tmp"):
                problems.append("a temporary file reached the remote: %s" % path)
            if re.match(r"^(\.gitignore|\.gitattributes|app\.json)\.", name) or re.match(r"^app\.conflict-", name):
                problems.append("a config file was forked into a copy: %s" % path)
            if path.startswith("nested-"):
                problems.append("a nested repository's file reached the remote: %s" % path)
        # No device makes two names that differ only in letter case (the case operation edits the
        # one it holds): a pair on the remote was made by a merge, and is one file on macOS.
        folded = {}
        for path in filter(None, listed.split("\0")):
            folded.setdefault(unicodedata.normalize("NFC", path).lower(), set()).add(unicodedata.normalize("NFC", path))
        for names in folded.values():
            if len(names) > 1:
                problems.append("names that differ only in letter case reached the remote: %s" % ", ".join(sorted(names)))
        marker = re.compile(rb"^(<<<<<<<|>>>>>>>)( |$)", re.M)
        for path, data in sorted(tree.items()):
            if marker.search(data):
                problems.append("conflict markers in %s" % path)
        text = b"\n".join(tree.values()).decode("utf-8", "replace")
        present = set(TOKEN.findall(text))
        listings = [self.quire(device, "conflicts", "--all", "--json").stdout for device in self.devices]
        if any(listing != listings[0] for listing in listings):
            problems.append("the devices list different conflicts")
        for device in self.devices:
            status = json.loads(self.quire(device, "status", "--json").stdout)
            if status.get("uncommitted") or status.get("ahead") or status.get("behind"):
                problems.append("%s: status after converging: %s" % (device.name, json.dumps(status)))
        for device in self.devices:
            problems.extend(self.catalog_problems(device))
        records = json.loads(listings[0] or "[]")
        self.stats["conflicts"] = len(records)
        self.stats["case_collisions"] = sum("only in letter case" in record.get("reason", "") for record in records)
        losing = set()
        for record in records:
            shown = self.quire(self.devices[0], "conflicts", "show", record["id"], check=False)
            if shown.returncode != 0 and "has no version of" not in shown.stderr:
                # When the losing side is a deletion there is no losing text to show (quire says
                # so and exits 1); anything else must be showable.
                problems.append("conflicts show %s failed: %s" % (record["id"], shown.stderr.strip()))
            losing.update(TOKEN.findall(shown.stdout))
        lost = []
        for token, entry in sorted(self.ledger.items()):
            if token in present or token in self.deleted or token in self.superseded or token in losing:
                continue
            lost.append(token)
        self.stats["losses"] = len(lost)
        for token in lost[:20]:
            entry = self.ledger[token]
            commits = self.git("--git-dir", git_dir, "log", ref if self.encrypted else "--all", "--format=%h %s", "-S", token).stdout
            problems.append("LOST %s (%s of note %s by %s in round %d); remote commits with it:\n%s" % (
                token, entry["kind"], entry["note"], entry["device"], entry["round"], commits.strip()))
        if self.args.hostile > 0:
            problems += hostile.check(self)
        if self.encrypted:
            problems += self.host_leaks(tree)
        problems += ["a namesake warning where every device has a name of its own: %s" % line
                     for line in self.false_namesakes[:10]]
        return problems

    def host_leaks(self, tree):
        """Over an encrypted remote: every object the host holds, inflated, searched for the
        ledger's tokens, the notes' names and the `chaos:` key."""
        objects = subprocess.run(["git", "--git-dir", self.remote, "cat-file", "--batch-all-objects", "--batch"],
                                 capture_output=True, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                                           "GIT_CONFIG_NOSYSTEM": "1", "HOME": self.root}).stdout
        canaries = [token.encode() for token in self.ledger] + [b"chaos:"]
        canaries += [os.path.splitext(os.path.basename(path))[0].encode() for path in tree
                     if len(os.path.splitext(os.path.basename(path))[0]) >= 8]
        leaked = sorted({canary.decode("utf-8", "replace") for canary in canaries if canary in objects})
        self.stats["host_objects_bytes"] = len(objects)
        return ["the encrypted host holds readable text: %s" % ", ".join(leaked[:10])] if leaked else []

    # ---- set-up and modes ----------------------------------------------------------------
    def setup(self):
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", self.remote], check=True)
        for index in range(self.args.devices):
            home = os.path.join(self.root, "home%d" % index)
            os.makedirs(home)
            device = Device(index, os.path.join(self.root, "dev%d" % index), home)
            self.devices.append(device)
        first = self.devices[0]
        subprocess.run([self.binary, "init", first.path], env=self.env(first), check=True, capture_output=True)
        self.quire(first, "remote", self.remote, *(["--encrypt"] if self.encrypted else []))
        self.quire(first, "sync")
        for device in self.devices[1:]:
            subprocess.run([self.binary, "clone", self.remote, device.path], cwd=self.root, env=self.env(device),
                           check=True, capture_output=True)
        if self.args.hostile > 0:
            hostile.setup(self)
        if self.args.edges and len(self.devices) > 1:
            # The last device converts line endings as a Windows user's git does.
            self.git("config", "core.autocrlf", "true", cwd=self.devices[-1].path)

    def run_chaos(self):
        for self.round in range(1, self.args.rounds + 1):
            for device in self.devices:
                for _ in range(self.rng.randint(0, self.args.max_operations)):
                    self.operate(device)
            self.sync_round()
            self.stats["rounds"] = self.round
            if self.args.operations and self.stats["operations"] >= self.args.operations:
                break
        self.round += 1
        return self.check(self.converge())

    def start_daemons(self):
        self.daemons = {}
        self.daemon_failures = []
        for device in self.devices:
            env = self.env(device)
            env["QUIRE_NOW"] = ""  # the daemon's timers and stamps run on the real clock
            log = open(os.path.join(self.root, "%s-daemon.log" % device.name), "w")
            self.daemons[device.name] = subprocess.Popen(
                [self.binary, "watch", "run", "--sync", "--debounce", "0.3", "--fetch-interval", "1", "--max-backoff", "2"],
                cwd=device.path, env=env, stdout=subprocess.DEVNULL, stderr=log)
        for device in self.devices:
            health = os.path.join(device.path, ".quire", "local", "daemon.json")
            deadline = time.time() + 60
            while time.time() < deadline and not (os.path.exists(health) and '"lastCycle"' in self.read(health)):
                time.sleep(0.1)

    def stop_daemon(self, device):
        """Stops the device's daemon with SIGTERM; the problem, if it does not exit cleanly."""
        process = self.daemons[device.name]
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=180)
        return [] if code == 0 else ["%s: the daemon exited %d after SIGTERM" % (device.name, code)]

    def stop_daemons(self):
        problems = []
        for device in self.devices:
            problems += self.stop_daemon(device)
            with open(os.path.join(self.root, "%s-daemon.log" % device.name)) as handle:
                log = handle.read()
            self.stats["daemon_cycles"] = self.stats.get("daemon_cycles", 0) + log.count(" sync ")
            failed = [line for line in log.splitlines() if re.search(r"Z sync (?!ok|skipped)", line)]
            self.stats["daemon_failed_cycles"] = self.stats.get("daemon_failed_cycles", 0) + len(failed)
            self.daemon_failures += ["%s: %s" % (device.name, line) for line in failed]
        return problems

    def operate_beside_daemon(self, device):
        """One operation while the device's daemon syncs. The driver picks a note from the files it
        sees; when the daemon moved or removed that note meanwhile (a remote rename or deletion
        arrived), the operation did not happen: its ledger entries are taken back (which can only
        hide a loss, never invent one) and the race is counted."""
        ledger, deleted, superseded = dict(self.ledger), set(self.deleted), set(self.superseded)
        try:
            self.operate(device)
        except (Raced, FileNotFoundError) as race:
            self.ledger, self.deleted, self.superseded = ledger, deleted, superseded
            self.stats["raced_operations"] = self.stats.get("raced_operations", 0) + 1
            self.log("%s operation raced with its daemon: %s" % (device.name, race))

    def run_daemons(self):
        self.start_daemons()
        problems = []
        try:
            for self.round in range(1, self.args.rounds + 1):
                for device in self.devices:
                    for _ in range(self.rng.randint(0, self.args.max_operations)):
                        self.operate_beside_daemon(device)
                if self.rng.random() < 0.3:
                    device = self.rng.choice(self.devices)
                    result = self.quire(device, "sync", "--json", check=False)
                    self.stats["syncs"] += 1
                    self.log("%s sync by hand beside its daemon: exit %d" % (device.name, result.returncode))
                    if result.returncode not in (0,):
                        problems.append("%s: a sync by hand beside the daemon exited %d: %s" % (
                            device.name, result.returncode, result.stderr.strip()))
                time.sleep(self.rng.uniform(0, 1.5))
                self.stats["rounds"] = self.round
                if self.args.operations and self.stats["operations"] >= self.args.operations:
                    break
            time.sleep(2)  # the last edits settle and travel
        finally:
            problems += self.stop_daemons()
        self.round += 1
        return problems + self.check(self.converge())

    def run_faults(self):
        """Every fault point, thrown and `:kill`: conflicting edits on two devices so that the faulty
        sync has a real merge to do, then a normal sync, convergence and the ledger check."""
        problems = []
        first, second = self.devices[0], self.devices[1]
        for point in FAULT_POINTS:
            for mode in ["", ":kill"]:
                self.round += 1
                for device in (first, second):
                    for _ in range(max(1, self.args.max_operations)):
                        self.operate(device)
                self.tick()
                self.quire(second, "sync")
                shared = self.notes(first)
                if shared:
                    self.operate_fallback(first, self.new_token(first))
                fault = point + mode
                self.stats["faults"] += 1
                self.tick()
                result = self.quire(first, "sync", fault=fault, check=False)
                self.stats["syncs"] += 1
                self.log("fault %s: exit %d %s" % (fault, result.returncode, result.stderr.strip()[:200]))
                expected = -signal.SIGKILL if mode else None
                if mode and result.returncode != expected:
                    problems.append("QUIRE_FAULT=%s: expected SIGKILL, got exit %d" % (fault, result.returncode))
                if not mode and result.returncode == 0 and point not in ("after-push",):
                    problems.append("QUIRE_FAULT=%s: the sync reported success" % fault)
                self.tick()
                again = self.quire(first, "sync", check=False)
                self.stats["syncs"] += 1
                if again.returncode != 0:
                    problems.append("QUIRE_FAULT=%s: the next sync failed with exit %d: %s" % (
                        fault, again.returncode, again.stderr.strip()))
                found = self.check(self.converge())
                problems += ["QUIRE_FAULT=%s: %s" % (fault, p) for p in found]
                if problems:
                    return problems
        return problems

    def reproduction(self):
        a = self.args
        return ("python3 Benchmarks/chaos/chaos.py --binary %s --seed %d --devices %d --rounds %d "
                "--max-operations %d --operations %d --sync-probability %s --concurrent-probability %s "
                "--fault-probability %s --kill-probability %s --edit-during-sync-probability %s --shapes-during-sync %s "
                "--edges %s --hostile %s%s --keep -v" % (
                    a.binary, a.seed, a.devices, a.rounds, a.max_operations, a.operations, a.sync_probability,
                    a.concurrent_probability, a.fault_probability, a.kill_probability,
                    a.edit_during_sync_probability, a.shapes_during_sync, a.edges, a.hostile,
                    " --faults" if a.faults else "")) + (
                    " --daemons" if a.daemons else "") + (" --encrypted" if self.encrypted else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/quire")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--devices", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--operations", type=int, default=0, help="stop after this many operations (0: no limit)")
    parser.add_argument("--max-operations", type=int, default=3, help="operations per device per round, at most")
    parser.add_argument("--sync-probability", type=float, default=0.6)
    parser.add_argument("--concurrent-probability", type=float, default=0.3)
    parser.add_argument("--fault-probability", type=float, default=0.0)
    parser.add_argument("--kill-probability", type=float, default=0.0)
    parser.add_argument("--kill-delay", type=float, default=0.3, help="seconds, at most, before SIGKILL")
    parser.add_argument("--edit-during-sync-probability", type=float, default=0.0)
    parser.add_argument("--shapes-during-sync", type=float, default=0.0,
                        help="the share of the edits made while a sync runs that are the file-and-folder shape "
                             "(a file where another device's folder may arrive, or a note in it) instead of an append")
    parser.add_argument("--faults", action="store_true", help="run every fault point instead of random rounds")
    parser.add_argument("--daemons", action="store_true", help="a sync daemon on every device instead of scheduled syncs")
    parser.add_argument("--edges", type=float, default=0.0,
                        help="weight of each edge shape (symlinks, NFC/NFD names, file/folder, nested repos, config "
                             "files, git CLI commits); also autocrlf on the last device and skewed clocks")
    parser.add_argument("--hostile", type=float, default=0.0,
                        help="weight of each hostile shape another device can sync (hostile.py: links into .git)")
    parser.add_argument("--encrypted", action="store_true",
                        help="share an encrypted remote (quire remote --encrypt) instead of a plain one")
    parser.add_argument("--namesakes", action="store_true",
                        help="every device syncs under one name (laptop), as two laptops of one host name do")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    chaos = Chaos(args)
    started = time.time()
    try:
        chaos.setup()
        problems = chaos.run_faults() if args.faults else chaos.run_daemons() if args.daemons else chaos.run_chaos()
    except Failure as failure:
        problems = [str(failure)]
    chaos.stats["seconds"] = round(time.time() - started, 1)
    chaos.stats["tokens"] = len(chaos.ledger)
    if args.json:
        print(json.dumps(chaos.stats, sort_keys=True))
    else:
        print(" ".join("%s=%s" % item for item in sorted(chaos.stats.items())))
    for line in getattr(chaos, "daemon_failures", [])[:10]:
        print("  daemon cycle that failed (retried by the daemon): " + line)
    return conclude(chaos, problems, args.seed, args.keep)


def conclude(driver, problems, seed, keep):
    """Prints the problems with the driver's last events, where its folder is kept and how to
    reproduce the run; removes the folder when there are none (unless `keep`). The exit code."""
    if problems:
        print("FAILED (seed %d): %d problem(s)" % (seed, len(problems)))
        for problem in problems:
            print("  " + problem)
        print("last operations:")
        for line in driver.log_lines[-40:]:
            print("  " + line)
        print("work trees kept in %s" % driver.root)
        print("reproduce: " + driver.reproduction())
        return 1
    if not keep:
        shutil.rmtree(driver.root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
