#!/usr/bin/env python3
"""Checks a site written by `quire export --html`: every page is well-formed HTML (a strict tag
balance: every element closed in order, void elements never closed, no duplicate id), no script
or stylesheet is loaded from elsewhere (images a note itself takes from the web are its author's
choice), and every href/src resolves to a file of the site or is an absolute URL.
Fragments pointing at a missing id are counted (and fail with --strict-fragments).

usage: check-site.py SITE [--strict-fragments]
Prints a JSON summary on stdout; exits 1 when a problem is found."""
import html.parser
import json
import os
import re
import sys
import urllib.parse

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.refs, self.errors, self.doctype = [], set(), [], [], False

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        self.record(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.record(tag, attrs)
        if tag not in VOID:
            self.errors.append(f"{self.getpos()}: <{tag} /> is not a void element")

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"{self.getpos()}: </{tag}> closes a void element")
        elif not self.stack:
            self.errors.append(f"{self.getpos()}: </{tag}> closes nothing")
        elif self.stack[-1][0] != tag:
            self.errors.append(f"{self.getpos()}: </{tag}> closes <{self.stack[-1][0]}> opened at {self.stack[-1][1]}")
            if any(open_tag == tag for open_tag, _ in self.stack):
                while self.stack and self.stack[-1][0] != tag:
                    self.stack.pop()
                self.stack.pop()
        else:
            self.stack.pop()

    def record(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                if value in self.ids:
                    self.errors.append(f"{self.getpos()}: duplicate id {value!r}")
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.refs.append((tag, name, value, self.getpos()))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    site = os.path.realpath(sys.argv[1])
    strict_fragments = "--strict-fragments" in sys.argv[2:]
    pages, problems = {}, []
    for folder, _, files in os.walk(site):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                parser = Page()
                with open(path, encoding="utf-8") as handle:
                    parser.feed(handle.read())
                parser.close()
                relative = os.path.relpath(path, site)
                if not parser.doctype:
                    problems.append(f"{relative}: no <!DOCTYPE html>")
                for message in parser.errors:
                    problems.append(f"{relative}: {message}")
                for tag, _ in parser.stack:
                    problems.append(f"{relative}: <{tag}> never closed")
                pages[path] = parser
    links = external = missing_fragments = 0
    fragment_examples = []
    for path, parser in sorted(pages.items()):
        relative = os.path.relpath(path, site)
        for tag, attribute, value, position in parser.refs:
            links += 1
            if SCHEME.match(value) or value.startswith("//"):
                external += 1
                if tag in ("script", "link"):
                    problems.append(f"{relative}:{position[0]}: <{tag} {attribute}> loads {value} from elsewhere")
                continue
            target, _, fragment = value.partition("#")
            target = urllib.parse.unquote(target.split("?")[0])
            resolved = path if target == "" else os.path.realpath(os.path.join(os.path.dirname(path), target))
            if not resolved.startswith(site + os.sep):
                problems.append(f"{relative}:{position[0]}: {value} leaves the site")
                continue
            if not os.path.isfile(resolved):
                problems.append(f"{relative}:{position[0]}: {value} leads to no file")
                continue
            if fragment and resolved in pages and urllib.parse.unquote(fragment) not in pages[resolved].ids:
                missing_fragments += 1
                if len(fragment_examples) < 10:
                    fragment_examples.append(f"{relative}:{position[0]}: {value}")
                if strict_fragments:
                    problems.append(f"{relative}:{position[0]}: {value} names no id of its page")
    print(json.dumps({"pages": len(pages), "links": links, "external": external,
                      "missingFragments": missing_fragments, "fragmentExamples": fragment_examples,
                      "problems": problems[:50], "problemCount": len(problems)}, indent=1))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
