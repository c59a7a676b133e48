"""Hostile shapes for chaos.py --hostile P (issue 32): what another device can sync to make this
one leak a secret or write where nothing syncs. Each operation is chosen with weight P beside the
ordinary ones; `check` runs after convergence and returns the problems found.

  git-link  -- `cfg-N.md -> .git/config`, `att/c-N.txt -> ../.git/config` or `dot-N -> .git`
               committed and linked from a note. Every device's `.git/config` holds a canary
               (`quire.canary`); `quire export --html` on every device must publish none of it.
"""
import os

CANARY = "canary-secret-%s"


def setup(chaos):
    """A canary in every device's `.git/config`: what a link into `.git/` would leak."""
    for device in chaos.devices:
        chaos.git("config", "quire.canary", CANARY % device.name, cwd=device.path)


def operations():
    """The names of the hostile operations, in the order chaos.py weighs them."""
    return ("git-link",)


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


def check(chaos):
    """After convergence: the hostile shapes did no harm on any device."""
    problems = []
    for device in chaos.devices:
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
    return problems
