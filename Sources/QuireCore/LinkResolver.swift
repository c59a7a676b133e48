import Foundation

/// Where a link leads, as `LinkResolver` decides it.
public enum LinkResolution: Sendable, Equatable, Hashable {
    /// The note at this vault path.
    case note(String)
    /// The attachment (any file that is not a note) at this vault path.
    case attachment(String)
    /// Several files fit equally well: their vault paths, sorted. Never guessed.
    case ambiguous([String])
    /// Nothing fits.
    case unresolved

    /// The one file the link leads to (nil when ambiguous or unresolved).
    public var path: String? {
        switch self {
        case .note(let path), .attachment(let path): return path
        case .ambiguous, .unresolved: return nil
        }
    }

    /// The path of the note the link leads to (nil for an attachment, ambiguity or nothing).
    public var notePath: String? {
        if case .note(let path) = self { return path }
        return nil
    }

    /// `note`, `attachment`, `ambiguous` or `unresolved` (what `--json` prints).
    public var status: String {
        switch self {
        case .note: return "note"
        case .attachment: return "attachment"
        case .ambiguous: return "ambiguous"
        case .unresolved: return "unresolved"
        }
    }
}

/// Whether a link's `#heading` or `#^block` was found in the note it leads to.
public enum AnchorStatus: String, Sendable, Equatable, Hashable {
    /// The link names no heading or block.
    case none
    /// The heading or block exists in the target note.
    case found
    /// The target note has no such heading or block.
    case missing
    /// Not checked (the link leads to no single note, or its headings are not known).
    case unchecked
}

/// The names a resolver looks files up by. Every key is `LinkResolver.key(_:)` of the name
/// (lowercased, canonically composed), so look-ups ignore case. Implemented by
/// `LinkTargetTable` (in memory) and by the catalog (from its index).
public protocol LinkTargetIndex {
    /// The vault paths of notes and attachments whose path has this key.
    func files(atPathKey key: String) -> [String]
    /// The vault paths of notes whose file name without `.md` has this key, and of
    /// attachments whose file name (extension included) has it.
    func files(withNameKey key: String) -> [String]
    /// The vault paths of notes whose title has this key.
    func notes(withTitleKey key: String) -> [String]
    /// The vault paths of notes one of whose `aliases` has this key.
    func notes(withAliasKey key: String) -> [String]
}

/// Resolves links as Obsidian does, in this order, ignoring case (see Docs/links.md):
///
/// 1. a path relative to the linking note's folder (`../b/c.md`, `sub/note`);
/// 2. a path from the vault root (`/b/c.md`, `b/c`);
/// 3. a file name without `.md` (`[[note]]`), or a path's tail (`[[b/note]]` matches
///    `a/b/note.md`): exactly one match wins — write the shortest path that is unique;
/// 4. a note's title (wikilinks and bare names only).
///
/// An alias is no link target, as in Obsidian: its link suggester writes `[[File|Alias]]`, and a
/// bare `[[Alias]]` that names no file is unresolved there. `aliasHolders(of:)` names the notes
/// such a link meant (for `quire check` and its `--fix`).
///
/// At each step one match wins; several matches that differ only in case go to the one spelt
/// exactly as the link, if there is one; otherwise they make the link `ambiguous`, listing
/// them. A step that finds nothing passes to the next; nothing at all is `unresolved`.
/// A target is tried as written first (a file such as `image.png`), then with `.md` added
/// (a note, whose `.md` may be left out: `[[dendron.ref.cli]]` is `dendron.ref.cli.md`); titles
/// are matched for any target without a `/`.
public struct LinkResolver {
    /// The names looked up.
    public let index: any LinkTargetIndex

    /// A resolver over `index`.
    public init(index: any LinkTargetIndex) {
        self.index = index
    }

    /// The key a name is looked up by: lowercased, in canonical composition.
    public static func key(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        let lowered = name.lowercased()
        return isComposed(lowered) ? lowered : lowered.precomposedStringWithCanonicalMapping
    }

    /// Whether `text` is in canonical composition as it is because each of its scalars is
    /// one that composition leaves alone wherever it stands (Unicode's NFC quick check says
    /// yes, and it combines with nothing before it): below U+0300 (Latin with its accents
    /// precomposed), a CJK ideograph, kana, a Hangul syllable. Foundation's composition of a
    /// whole string costs a hundred times this look; false sends any other text to it.
    static func isComposed(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0..<0x300, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
            default: return false
            }
        }
    }

    /// Where `link`, written in the note at `source`, leads.
    public func resolve(_ link: NoteLink, from source: String) -> LinkResolution {
        resolve(target: link.target, from: source)
    }

    /// Where a link target (a path or name, decoded; empty = the note itself) written in the
    /// note at `source` leads.
    public func resolve(target: String, from source: String) -> LinkResolution {
        guard !target.isEmpty else { return .note(source) }
        return resolveRelative(target: target, from: source) ?? resolveFromRoot(target: target)
    }

    /// Step 1 alone: where a target (not empty) written in the note at `source` leads as a
    /// path relative to that note's folder; nil when it leads to no file that way (or is
    /// rooted, or the note is at the vault root). What `resolve(target:from:)` answers when
    /// not nil; otherwise it answers `resolveFromRoot(target:)`, which depends on the target
    /// alone: a caller resolving many links may keep that answer per target.
    public func resolveRelative(target: String, from source: String) -> LinkResolution? {
        let folder = target.hasPrefix("/") ? "" : NoteParser.folder(of: source)
        guard !folder.isEmpty, let joined = LinkTarget.normalized(folder + "/" + target) else { return nil }
        return pick(path: joined, hasNoteExtension: target.lowercased().hasSuffix(".md"))
    }

    /// Steps 2 to 4: where a target (not empty) leads from the vault root, by path, file name
    /// or title (see `resolveRelative(target:from:)`).
    public func resolveFromRoot(target: String) -> LinkResolution {
        let hasNoteExtension = target.lowercased().hasSuffix(".md")
        // A target is tried as written (a file: `pic.png`), then as a note with `.md` added.
        func forms(_ path: String) -> [String] { hasNoteExtension ? [path] : [path, path + ".md"] }
        guard let tail = LinkTarget.normalized(target) else { return .unresolved }
        // Step 2: a path from the vault root.
        if let result = pick(path: tail, hasNoteExtension: hasNoteExtension) { return result }
        // Step 3: a file name, or a path's tail.
        let name = tail.split(separator: "/").last.map(String.init) ?? tail
        let nameKey = Self.key(hasNoteExtension ? String(name.dropLast(3)) : name)
        let suffixes = forms(tail).map { "/" + Self.key($0) }
        let byName = index.files(withNameKey: nameKey).filter { path in
            let key = "/" + Self.key(path)
            return suffixes.contains { key.hasSuffix($0) }
        }
        if let result = pick(byName, spellings: forms(tail), suffix: true) { return result }
        // Step 4: titles.
        guard !tail.contains("/") else { return .unresolved }
        let titled = Array(Set(index.notes(withTitleKey: Self.key(target)))).sorted()
        if titled.count == 1 { return .note(titled[0]) }
        return titled.isEmpty ? .unresolved : .ambiguous(titled)
    }

    /// The file at the vault path `path` (normalized), as written, then with `.md` added.
    private func pick(path: String, hasNoteExtension: Bool) -> LinkResolution? {
        for form in hasNoteExtension ? [path] : [path, path + ".md"] {
            if let result = pick(index.files(atPathKey: Self.key(form)), spellings: [form]) { return result }
        }
        return nil
    }

    /// The notes with `target` (a bare name, no `/`) among their aliases, sorted; empty for a
    /// path.
    public func aliasHolders(of target: String) -> [String] {
        guard !target.isEmpty, !target.contains("/") else { return [] }
        return Array(Set(index.notes(withAliasKey: Self.key(target)))).sorted()
    }

    /// One match wins; matches differing only in case go to the exact spelling; nil for none.
    private func pick(_ found: [String], spellings: [String], suffix: Bool = false) -> LinkResolution? {
        let unique = Array(Set(found)).sorted()
        guard !unique.isEmpty else { return nil }
        func wrap(_ path: String) -> LinkResolution {
            path.lowercased().hasSuffix(".md") ? .note(path) : .attachment(path)
        }
        if unique.count == 1 { return wrap(unique[0]) }
        let exact = unique.filter { path in
            spellings.contains { suffix ? (path == $0 || path.hasSuffix("/" + $0)) : path == $0 }
        }
        if exact.count == 1 { return wrap(exact[0]) }
        return .ambiguous(unique)
    }

    /// Whether the heading or block a link names exists in `anchors` (the target's).
    public static func anchorStatus(of link: NoteLink, in anchors: NoteAnchors?) -> AnchorStatus {
        guard link.heading != nil || link.blockID != nil else { return .none }
        guard let anchors else { return .unchecked }
        if let heading = link.heading { return anchors.hasHeading(heading) ? .found : .missing }
        if let block = link.blockID { return anchors.hasBlock(block) ? .found : .missing }
        return .none
    }
}
