"""Hostile shapes for chaos.py --hostile P (issue 32): what another device can sync to make this
one leak a secret or write where nothing syncs. Each operation is chosen with weight P beside the
ordinary ones; `check` runs after convergence and returns the problems found.

  git-link  -- `cfg-N.md -> .git/config`, `att/c-N.txt -> ../.git/config` or `dot-N -> .git`
               committed and linked from a note. Every device's `.git/config` holds a canary
               (`quire.canary`); `quire export --html` on every device must publish none of it.
  config-path -- a `daily:` section naming `.git/info`, `..`, an absolute path, `.quire/local`, a
               hidden folder or a format climbing out, written into `.quire/config.yml`; once a
               device holds one, the operation runs `quire daily` there, which must refuse it
               (exit 1, naming the key) and write nothing. The check runs it on every device.
  scratch   -- another editor's scratch or lock file beside a note (Kate, gedit, LibreOffice,
               JetBrains, VS Code, vim's other swap names and write tests, emacs's numbered
               backups), or a file of no known name that appears and is gone at once. None may
               ever reach the remote; the scratch files stay on their device (the trees are
               compared without them).
  odd-value -- a note whose tag key holds what quire's tags cannot hold without loss: a list with
               a mapping, a nested list, numbers or booleans, `keywords` as a mapping, `categories`
               of mappings (each holding the operation's token). After convergence the check
               lowers the last device's format version (its `daily:` section, which would stop
               every command, removed), runs `quire migrate` there (exit 0, one "kept" note per
               such note) and converges again: every value must still be on every device, byte
               for byte (FrontMatterMapping.tagLoss). `quire tag` is not run on these notes (it
               refuses them, exit 1).
"""
import os
import re
import time

CANARY = "canary-secret-%s"
HOSTILE_DAILY = ["folder: .git/info", "folder: .GIT/hooks", "folder: ../outside", "folder: /tmp/quire-chaos-daily",
                 "folder: .quire/local/journal", "folder: Notes/.hidden", "format: ../YYYY-MM-DD",
                 "format: .git/YYYY-MM-DD", "template: ../../.git/config"]
SCRATCH_NAMES = [".{n}.kate-swp", ".goutputstream-{t}", ".~lock.{n}#", "{n}___jb_tmp___", "{n}___jb_old___",
                 "{n}.vsctmp", ".{n}.swx", ".{n}.swo", ".{n}.svz", ".{n}.saa", "5036", "5159", "{n}.~1~", "{n}~",
                 ".#{n}", "#{n}#"]
SCRATCH = re.compile(r"^(\..+\.kate-swp|\.goutputstream-.+|\.~lock\..+#|.+___jb_(tmp|old)___|.+\.vsctmp|"
                     r"\..+\.(sw[a-px]|s[a-v][a-z])|\d{4,6}|.+~|\.#.+|#.+#)$")
DAILY_SECTION = re.compile(r"^daily:\n(?:[ \t]+.*\n?)*", re.M)
ODD_MARK = "hostile: odd-value"
ODD_VALUES = ["tags:\n  - {t}\n  - {{project: {t}, due: 2026-12-01}}\n  - Work\n",
              "tags: [{t}, [nested, {t}], A, a]\n",
              "tags: [{t}, 2024, 1.10, {T}]\n",
              "tags:\n  - {t}\n  - true\n  - false\n",
              "keywords:\n  topic: {t}\n  weight: 2\n",
              "categories:\n  - name: {t}\n    weight: 1\n  - name: sea\n"]


def setup(chaos):
    """A canary in every device's `.git/config`: what a link into `.git/` would leak; the odd
    values written (token → the key's lines)."""
    chaos.odd_values = {}
    for device in chaos.devices:
        chaos.git("config", "quire.canary", CANARY % device.name, cwd=device.path)


def operations():
    """The names of the hostile operations, in the order chaos.py weighs them."""
    return ("git-link", "config-path", "scratch", "odd-value")


def holds_odd_value(text):
    """Whether a note is one the odd-value operation wrote (`quire tag` refuses its tags)."""
    return "\n%s\n" % ODD_MARK in text


def is_scratch(name):
    """Whether a file name is one of the scratch shapes this driver makes (or vim's write test)."""
    return bool(SCRATCH.match(name)) and not (name.isdigit() and (int(name) < 4913 or (int(name) - 4913) % 123))


def operate(chaos, device, operation, token):
    """Runs one hostile operation on `device`, recording its token in the ledger."""
    root = device.path
    name = token[4:]
    if operation == "git-link":
        kind = chaos.rng.choice(["note", "attachment", "folder"])
        if kind == "note":
            os.symlink(".git/config", os.path.join(root, "cfg-%s.md" % name))
            links = "[[cfg-%s]]" % name
        elif kind == "attachment":
            os.makedirs(os.path.join(root, "att"), exist_ok=True)
            os.symlink("../.git/config", os.path.join(root, "att", "c-%s.txt" % name))
            links = "[c](att/c-%s.txt) ![c](att/c-%s.txt)" % (name, name)
        else:
            os.symlink(".git", os.path.join(root, "dot-%s" % name))
            links = "[[dot-%s/config]] [c](dot-%s/config)" % (name, name)
        chaos.write_as_editor(os.path.join(root, "leak-%s.md" % name), "# Leak %s\n\n%s %s\n" % (name, token, links), device)
        chaos.record(token, "body", None, device)
        chaos.stats["hostile_links"] = chaos.stats.get("hostile_links", 0) + 1
    elif operation == "config-path":
        config = os.path.join(root, ".quire", "config.yml")
        text = chaos.read(config) if os.path.exists(config) else ""
        if DAILY_SECTION.search(text):
            problems = daily_refused(chaos, device)
            if problems:
                raise chaos.failure_type("; ".join(problems))
            return
        value = chaos.rng.choice(HOSTILE_DAILY)
        text = text + ("" if text.endswith("\n") or not text else "\n") + "daily:\n  %s\n" % value
        chaos.write_as_editor(config, text, device)
        chaos.stats["hostile_configs"] = chaos.stats.get("hostile_configs", 0) + 1
    elif operation == "scratch":
        notes = chaos.notes(device)
        note = chaos.rng.choice(notes) if notes else "note-%s.md" % name
        folder = os.path.join(root, os.path.dirname(note))
        if chaos.rng.random() < 0.3:
            # A file of no known name, gone at once (well within any daemon's debounce).
            transient = os.path.join(folder, "transient-%s.tmp" % name)
            with open(transient, "w", encoding="utf-8") as handle:
                handle.write(token + "\n")
            time.sleep(0.02 if chaos.args.daemons else 0)
            os.remove(transient)
            chaos.stats["hostile_transients"] = chaos.stats.get("hostile_transients", 0) + 1
            return
        scratch = chaos.rng.choice(SCRATCH_NAMES).format(n=os.path.basename(note), t=name[-6:])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, scratch), "w", encoding="utf-8") as handle:
            handle.write("%s user@host %s\n" % (scratch, token))
        chaos.stats["hostile_scratch"] = chaos.stats.get("hostile_scratch", 0) + 1
    elif operation == "odd-value":
        value = chaos.rng.choice(ODD_VALUES).format(t=token, T=token.upper())
        chaos.odd_values[token] = value
        chaos.write_as_editor(os.path.join(root, "odd-%s.md" % name),
                              "---\ntitle: Odd %s\n%s\n%s---\n%s\n" % (name, ODD_MARK, value, token), device)
        chaos.record(token, "body", None, device)
        chaos.stats["hostile_values"] = chaos.stats.get("hostile_values", 0) + 1


def odd_values_missing(chaos, when):
    """The odd values not on every device byte for byte (a deleted note's excepted)."""
    problems = []
    for device in chaos.devices:
        texts = [chaos.read(os.path.join(device.path, note)) for note in chaos.notes(device)]
        for token, value in sorted(chaos.odd_values.items()):
            if token in chaos.deleted or any("\n" + value in text for text in texts):
                continue
            holder = [text for text in texts if token in text]
            problems.append("%s: %s: the value of %s is not there byte for byte: %r in %r" % (
                device.name, when, token, value, holder[:1]))
    return problems


def migrate_keeps_odd_values(chaos):
    """The last device's vault lowered to format 1 and migrated: exit 0, each odd note named as
    kept, and after converging every odd value still on every device byte for byte."""
    problems = odd_values_missing(chaos, "before quire migrate")
    device = chaos.devices[-1]
    config = os.path.join(device.path, ".quire", "config.yml")
    text = DAILY_SECTION.sub("", chaos.read(config)) if os.path.exists(config) else ""
    text, versions = re.subn(r"^version: *\d+ *$", "version: 1", text, flags=re.M)
    chaos.write_as_editor(config, text if versions else "version: 1\n" + text, device)
    migrated = chaos.quire(device, "migrate", check=False)
    chaos.stats["hostile_migrations"] = chaos.stats.get("hostile_migrations", 0) + 1
    odd = [note for note in chaos.notes(device) if holds_odd_value(chaos.read(os.path.join(device.path, note)))]
    kept = migrated.stderr.count("quire: note: kept ")
    if migrated.returncode != 0 or kept < len(odd):
        problems.append("%s: quire migrate exited %d, %d kept notes for %d odd notes: %s" % (
            device.name, migrated.returncode, kept, len(odd), migrated.stderr.strip()))
    chaos.converge()
    return problems + odd_values_missing(chaos, "after quire migrate")


def written_under_git(device):
    """Notes under the device's `.git/` (where a journal once went) and outside markers."""
    found = []
    for directory, _, names in os.walk(os.path.join(device.path, ".git")):
        found += [os.path.join(directory, name) for name in names if name.endswith(".md")]
    return found


def daily_refused(chaos, device):
    """`quire daily` on a device whose `.quire/config.yml` names a hostile daily path: refused,
    naming the key, nothing written under `.git/`, outside the vault or in the work tree."""
    problems = []
    before = chaos.tree(device)
    result = chaos.quire(device, "daily", "--no-edit", check=False)
    chaos.stats["hostile_dailies"] = chaos.stats.get("hostile_dailies", 0) + 1
    if result.returncode != 1 or "invalid vault configuration .quire/config.yml: daily." not in result.stderr:
        problems.append("%s: quire daily with a hostile daily path exited %d: %s%s" % (
            device.name, result.returncode, result.stdout, result.stderr.strip()))
    if not chaos.args.daemons and chaos.tree(device) != before:
        problems.append("%s: quire daily with a hostile daily path changed the work tree" % device.name)
    for path in written_under_git(device):
        problems.append("%s: a note was written under .git: %s" % (device.name, path))
    for outside in ("outside", "/tmp/quire-chaos-daily"):
        if os.path.exists(os.path.join(chaos.root, outside)):
            problems.append("a daily note was written outside the vault: %s" % outside)
    return problems


def check(chaos):
    """After convergence: the hostile shapes did no harm on any device."""
    problems = []
    git_dir, ref = chaos.published()
    history = chaos.git("--git-dir", git_dir, "log", ref if chaos.encrypted else "--all", "--name-only", "--format=").stdout
    for path in sorted(set(filter(None, history.splitlines()))):
        name = os.path.basename(path)
        if is_scratch(name) or name.startswith("transient-"):
            problems.append("an editor's scratch or transient file reached the remote: %s" % path)
    for device in chaos.devices:
        config = os.path.join(device.path, ".quire", "config.yml")
        if os.path.exists(config) and DAILY_SECTION.search(chaos.read(config)):
            problems += daily_refused(chaos, device)
        site = os.path.join(chaos.root, "site-%s" % device.name)
        exported = chaos.quire(device, "export", "--html", site, check=False)
        if exported.returncode != 0:
            problems.append("%s: quire export --html exited %d: %s" % (device.name, exported.returncode,
                                                                       exported.stderr.strip()))
        for directory, _, names in os.walk(site):
            for file_name in names:
                with open(os.path.join(directory, file_name), "rb") as handle:
                    if b"canary-secret-" in handle.read():
                        problems.append("%s: the export published .git/config in %s" % (
                            device.name, os.path.relpath(os.path.join(directory, file_name), site)))
    if chaos.odd_values:
        problems += migrate_keeps_odd_values(chaos)
    return problems
