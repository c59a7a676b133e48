import Foundation
import QuireCore

/// Decides how a link that led to a note before some notes moved is written after, keeping its
/// style: a wikilink stays a wikilink in its form (a bare name stays a bare name while that is
/// unique, a path stays a path, a title stays a title), a Markdown link keeps being relative,
/// rooted or a bare name, percent-encoded or in angle brackets as it was. Only the target's text
/// is decided; the label, heading and block of the link stay as written.
struct LinkRetargeter {
    /// Resolution before the moves (old paths, old titles).
    let before: LinkResolver
    /// Resolution after (new paths, new titles).
    let after: LinkResolver
    /// The old and new title and aliases of each note, by new path (by its bytes).
    let names: [ExactPath: NoteNames]

    /// A note's names after the moves, as links may use them.
    struct NoteNames {
        var title: String
        var aliases: [String]
    }

    /// What becomes of one link.
    enum Outcome: Equatable {
        /// It still leads where it led; nothing to do.
        case unchanged
        /// Write this text in place of the target's bytes.
        case rewrite(String)
        /// It led to several notes before: left as written.
        case ambiguous([String])
        /// It led nowhere before: left as written.
        case unresolved
        /// No spelling in its style leads to the note now (a name with `|` or `#` in a wikilink).
        case unspellable(String)
    }

    /// The outcome for `link`, written in the note that was at `oldSource` and is at
    /// `newSource`; `moved` maps old note paths (by their bytes) to new ones (unmoved notes are
    /// not in it).
    func outcome(of link: NoteLink, oldSource: String, newSource: String, moved: [ExactPath: String]) -> Outcome {
        guard !link.isSelfLink, !link.pointsAtAttachment else { return .unchanged }
        let old: String
        switch before.resolve(link, from: oldSource) {
        case .note(let path): old = path
        case .attachment: return .unchanged
        case .ambiguous(let paths): return .ambiguous(paths)
        case .unresolved: return .unresolved
        }
        let new = moved[ExactPath(old)] ?? old
        // A Markdown link that was a working relative path stays one (other renderers read it as
        // a path), even where a name look-up would still find the note.
        let wasPath = link.style == .markdown && Self.isRelative(link.target, from: LinkPathText.folder(of: oldSource), to: old)
        if after.resolve(target: link.target, from: newSource) == .note(new),
           !wasPath || Self.isRelative(link.target, from: LinkPathText.folder(of: newSource), to: new) { return .unchanged }
        let candidates = spellings(of: link, oldSource: oldSource, oldTarget: old, newTarget: new, newSource: newSource)
        for candidate in candidates where acceptable(candidate, in: link) {
            let decoded = link.style == .markdown ? LinkPathText.decoded(candidate) : candidate
            if after.resolve(target: decoded, from: newSource) == .note(new) { return .rewrite(candidate) }
        }
        return .unspellable(new)
    }

    /// Candidate spellings, best first, in the link's form.
    private func spellings(of link: NoteLink, oldSource: String, oldTarget: String, newTarget: String,
                           newSource: String) -> [String] {
        let target = link.target
        let keepsExtension = target.lowercased().hasSuffix(".md")
        func shown(_ path: String) -> String { keepsExtension ? path : LinkPathText.withoutExtension(path) }
        let folder = LinkPathText.folder(of: newSource)
        let relative = LinkTarget.relativePath(to: newTarget, from: folder)
        let suffixes = Self.suffixes(of: newTarget).map(shown)
        let isName = !target.contains("/")
        var forms: [String]
        if target.hasPrefix("/") {
            forms = ["/" + shown(newTarget)]
        } else if target.hasPrefix("./") || target.hasPrefix("../") {
            forms = [(target.hasPrefix("./") && !relative.hasPrefix("../") ? "./" : "") + shown(relative)]
        } else if link.style == .markdown || !isName,
                  Self.isRelative(target, from: LinkPathText.folder(of: oldSource), to: oldTarget) {
            forms = [shown(relative)]
        } else if !isName, Self.isRelative(target, from: "", to: oldTarget) {
            forms = [shown(newTarget)]
        } else if !isName {
            forms = suffixes.dropFirst() + [shown(newTarget)]
        } else {
            // A bare name (a wikilink's, or a Markdown link's that was not a relative path).
            forms = suffixes
            let oldKey = LinkResolver.key(LinkPathText.withoutExtension(target))
            let stemKey = LinkResolver.key(LinkPathText.withoutExtension(LinkPathText.fileName(of: oldTarget)))
            if oldKey != stemKey, let names = names[ExactPath(newTarget)], !keepsExtension {
                // It named the note by its title (or an alias): it names the new title.
                forms.insert(names.title, at: 0)
            }
        }
        forms += [shown(relative), shown(newTarget), "/" + shown(newTarget)]
        var seen = Set<String>()
        return forms.filter { !$0.isEmpty && seen.insert($0).inserted }.map { form in
            link.style == .markdown ? LinkPathText.destination(form, angle: link.isAngleBracketed, like: link.rawTarget) : form
        }
    }

    /// Whether `target`, read relative to `folder` (`""`: the vault root), names `path` (steps 1
    /// and 2 of the resolution).
    static func isRelative(_ target: String, from folder: String, to path: String) -> Bool {
        guard let joined = LinkTarget.normalized(folder.isEmpty ? target : folder + "/" + target) else { return false }
        let full = joined.lowercased().hasSuffix(".md") ? joined : joined + ".md"
        return LinkResolver.key(full) == LinkResolver.key(path)
    }

    /// `c.md`, `b/c.md`, `a/b/c.md` for `a/b/c.md`: the tails of a path, shortest first.
    static func suffixes(of path: String) -> [String] {
        let parts = path.split(separator: "/").map(String.init)
        return (1...max(parts.count, 1)).map { parts.suffix($0).joined(separator: "/") }
    }

    /// Whether a spelling can stand in the link: a wikilink cannot hold `|`, `#`, `^`, `[`, `]`
    /// or a line break; a link in a front-matter string cannot hold a quote or a backslash.
    private func acceptable(_ text: String, in link: NoteLink) -> Bool {
        if text.contains(where: { $0.isNewline }) { return false }
        if link.style == .wiki, text.contains(where: { "|#^[]".contains($0) }) { return false }
        if case .frontMatter = link.location, text.contains(where: { "\"'\\".contains($0) }) { return false }
        return true
    }
}
