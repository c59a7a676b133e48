import Foundation
import QuireCore

/// One link's target rewritten in a note file.
public struct LinkEdit: Sendable, Equatable {
    /// The note file, by its path after the change.
    public var path: String
    /// The 1-based line of the link.
    public var line: Int
    /// The link as it was written (`[[Old|label]]`).
    public var old: String
    /// The link as it is written now (`[[New|label]]`).
    public var new: String

    /// Creates an edit record.
    public init(path: String, line: Int, old: String, new: String) {
        self.path = path
        self.line = line
        self.old = old
        self.new = new
    }
}

/// A link a change left as it was, and why.
public struct LeftLink: Sendable, Equatable {
    /// Why a link was left alone.
    public enum Reason: Sendable, Equatable {
        /// It led to several notes (their paths) before the change: it is not guessed.
        case ambiguous([String])
        /// It led to no note before the change.
        case unresolved
        /// No spelling in its style leads to the note (at this path) now.
        case unspellable(String)
        /// The note holding it is read-only (`--force` changes it).
        case readOnly
        /// Its front matter is unreadable: the note is never rewritten.
        case unreadable
        /// The note changed on disk while the links were being rewritten: left as it was saved.
        case editedMeanwhile
    }

    /// The note file holding the link (its path after the change).
    public var path: String
    /// The 1-based line.
    public var line: Int
    /// The link as written.
    public var text: String
    /// Why it was left.
    public var reason: Reason

    /// Creates a record.
    public init(path: String, line: Int, text: String, reason: Reason) {
        self.path = path
        self.line = line
        self.text = text
        self.reason = reason
    }
}

/// The new bytes of one note file whose links change, with what changed.
struct RewrittenNote {
    var oldPath: String
    var newPath: String
    var data: Data
    var original: Data
    var edits: [LinkEdit]
}

/// Rewrites the targets of links in note files: only the bytes of each target change.
enum LinkRewrite {
    /// `data` with each `(range, text)` replacement applied (ranges into `data`, not overlapping).
    static func apply(_ replacements: [(range: Range<Int>, text: String)], to data: Data) -> Data {
        var result = Data()
        result.reserveCapacity(data.count + 64)
        var position = data.startIndex
        for replacement in replacements.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let lower = data.startIndex + replacement.range.lowerBound
            guard lower >= position else { continue }
            result.append(data[position..<lower])
            result.append(Data(replacement.text.utf8))
            position = data.startIndex + replacement.range.upperBound
        }
        result.append(data[position...])
        return result
    }

    /// The bytes of the note files at `paths`, read on every core.
    static func read(_ paths: [String], in vault: Vault) throws -> [(path: String, data: Data)] {
        try read(paths, with: { try vault.readData($0) })
    }

    /// The bytes of each note `read` gives (the file, or an editor's unsaved buffer), on every core.
    static func read(_ paths: [String], with read: @escaping @Sendable (String) throws -> Data) throws -> [(path: String, data: Data)] {
        try ParallelMap.map(paths, chunkSize: 16) { path -> Result<(path: String, data: Data), Error> in
            Result { (path, try read(path)) }
        }.map { try $0.get() }
    }

    /// The link as written after replacing its target's bytes with `text`.
    static func linkText(_ link: NoteLink, in data: Data, replacing text: String? = nil) -> String {
        let start = data.startIndex
        guard let text else { return String(decoding: data[(start + link.range.lowerBound)..<(start + link.range.upperBound)], as: UTF8.self) }
        let before = data[(start + link.range.lowerBound)..<(start + link.targetRange.lowerBound)]
        let after = data[(start + link.targetRange.upperBound)..<(start + link.range.upperBound)]
        return String(decoding: before, as: UTF8.self) + text + String(decoding: after, as: UTF8.self)
    }

    /// The rewrites every note needs: `files` are the notes' old paths with their bytes, `moved`
    /// maps old paths to new ones. Links that were ambiguous or unresolved are reported only when
    /// they may concern a moved note (their name is a moved note's old file name or title).
    /// With `onlyBroken` (a repair), only links that lead nowhere now are looked at, and every one
    /// that cannot be repaired is reported (`movedNames` is then not used).
    /// `attachment` gives, for the vault path an attachment link names relative to its note's
    /// old folder, where that file is after the change (nil: no file is there); a Markdown link
    /// that named an attachment by a relative path names it by one from the note's new folder.
    /// Looked at in a note that moves, and in every note when `attachmentsMove` (a folder moved
    /// whole): a note that stays keeps its links to attachments that stay, with no file looked at.
    static func plan(files: [(path: String, data: Data)], retargeter: LinkRetargeter, moved: [ExactPath: String],
                     movedNames: Set<String>, onlyBroken: Bool = false,
                     attachment: @escaping @Sendable (String) -> String? = { _ in nil },
                     attachmentsMove: Bool = false,
                     aliasHolder: @escaping @Sendable (NoteLink) -> String? = { _ in nil }) -> (notes: [RewrittenNote], left: [LeftLink]) {
        let results = ParallelMap.map(Array(files.indices), chunkSize: 16) { index -> (RewrittenNote?, [LeftLink]) in
            let (oldPath, data) = files[index]
            let newPath = moved[ExactPath(oldPath)] ?? oldPath
            var replacements: [(range: Range<Int>, text: String)] = []
            var edits: [LinkEdit] = []
            var left: [LeftLink] = []
            for link in LinkExtractor.links(in: data) {
                if !onlyBroken, link.pointsAtAttachment, oldPath != newPath || attachmentsMove,
                   let text = relativeAttachment(link, oldSource: oldPath, newSource: newPath, locate: attachment) {
                    replacements.append((link.targetRange, text))
                    edits.append(LinkEdit(path: newPath, line: link.line, old: linkText(link, in: data),
                                          new: linkText(link, in: data, replacing: text)))
                    continue
                }
                if onlyBroken, link.isSelfLink || link.pointsAtAttachment
                    || retargeter.after.resolve(link, from: newPath) != .unresolved { continue }
                if onlyBroken, link.style == .wiki, let holder = aliasHolder(link),
                   let rewrite = aliasRewrite(link, holder: holder, source: newPath, resolver: retargeter.after, data: data) {
                    replacements.append((rewrite.range, rewrite.text))
                    let old = linkText(link, in: data)
                    edits.append(LinkEdit(path: newPath, line: link.line, old: old, new: rewrite.link))
                    continue
                }
                let outcome = retargeter.outcome(of: link, oldSource: oldPath, newSource: newPath, moved: moved)
                switch outcome {
                case .unchanged: continue
                case .rewrite(let text):
                    replacements.append((link.targetRange, text))
                    edits.append(LinkEdit(path: newPath, line: link.line, old: linkText(link, in: data),
                                          new: linkText(link, in: data, replacing: text)))
                case .ambiguous(let paths):
                    guard paths.contains(where: { moved[ExactPath($0)] != nil }) else { continue }
                    left.append(LeftLink(path: newPath, line: link.line, text: linkText(link, in: data), reason: .ambiguous(paths)))
                case .unresolved:
                    let name = LinkPathText.withoutExtension(LinkPathText.fileName(of: link.target))
                    guard onlyBroken || movedNames.contains(LinkResolver.key(name)) else { continue }
                    left.append(LeftLink(path: newPath, line: link.line, text: linkText(link, in: data), reason: .unresolved))
                case .unspellable(let path):
                    left.append(LeftLink(path: newPath, line: link.line, text: linkText(link, in: data), reason: .unspellable(path)))
                }
            }
            guard !replacements.isEmpty else { return (nil, left) }
            let note = RewrittenNote(oldPath: oldPath, newPath: newPath, data: apply(replacements, to: data),
                                     original: data, edits: edits)
            return (note, left)
        }
        return (results.compactMap(\.0), results.flatMap(\.1))
    }

    /// `[[Alias]]` written as Obsidian links an alias, `[[File|Alias]]` (`[[Alias#H]]` →
    /// `[[File#H|Alias]]`; a link with a label keeps it: `[[Alias|x]]` → `[[File|x]]`), File the
    /// shortest name that leads to `holder` from `source`: the bytes to replace, their new text
    /// and the whole new link; nil when no spelling fits in a wikilink.
    static func aliasRewrite(_ link: NoteLink, holder: String, source: String, resolver: LinkResolver,
                             data: Data) -> (range: Range<Int>, text: String, link: String)? {
        let stem = LinkPathText.withoutExtension(LinkPathText.fileName(of: holder))
        let spelled = resolver.resolve(target: stem, from: source) == .note(holder) ? stem : LinkPathText.withoutExtension(holder)
        guard !spelled.contains(where: { "|#^[]".contains($0) || $0.isNewline }) else { return nil }
        let fragment = link.fragmentRange.map { String(decoding: data[$0], as: UTF8.self) } ?? ""
        let range: Range<Int>, text: String
        if link.labelRange != nil {
            (range, text) = (link.targetRange, spelled)
        } else {
            range = link.targetRange.lowerBound..<(link.fragmentRange?.upperBound ?? link.targetRange.upperBound)
            text = spelled + fragment + "|" + link.target
        }
        let whole = link.range
        var bytes = Array(data[whole])
        bytes.replaceSubrange((range.lowerBound - whole.lowerBound)..<(range.upperBound - whole.lowerBound), with: Array(text.utf8))
        return (range, text, String(decoding: bytes, as: UTF8.self))
    }

    /// The new target of a Markdown link that named an attachment by a path relative to its
    /// note (`![p](pic.png)`, `[pdf](../files/a.pdf)`) once the note or the attachment moved: the
    /// path from the note's new folder, written as the link wrote its target (nil: it stays).
    /// Wikilinks and bare names find an attachment by its name wherever it is, and a rooted
    /// path (`/files/a.pdf`) moves only with the attachment.
    static func relativeAttachment(_ link: NoteLink, oldSource: String, newSource: String,
                                   locate: (String) -> String?) -> String? {
        guard link.style == .markdown, !link.target.isEmpty, !link.target.hasPrefix("/"),
              !link.target.contains("://") else { return nil }
        let oldFolder = LinkPathText.folder(of: oldSource)
        guard let old = LinkTarget.normalized(oldFolder.isEmpty ? link.target : oldFolder + "/" + link.target),
              let new = locate(old) else { return nil }
        var relative = LinkTarget.relativePath(to: new, from: LinkPathText.folder(of: newSource))
        if link.target.hasPrefix("./") && !relative.hasPrefix("../") { relative = "./" + relative }
        guard relative != link.target else { return nil }
        return LinkPathText.destination(relative, angle: link.isAngleBracketed, like: link.rawTarget)
    }
}
