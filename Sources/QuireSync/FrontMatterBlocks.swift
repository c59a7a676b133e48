import Foundation
import QuireCore

/// A note's front matter cut into the exact text of each top-level key — its line and the lines
/// of its value — and of the comment and blank lines that follow it up to the next key (its
/// gap), plus the lines before the first key. A key merge works on these texts from the merge
/// base, so lines changed on one side only keep that change byte for byte (comments, duplicate
/// list items, quoting), whichever side is newer.
struct FrontMatterBlocks {
    /// One top-level key: its own lines and the comment or blank lines after them.
    struct Block {
        var key: String
        var text: String
        var gap: String
    }

    /// The text before the first key (comments, blank lines).
    var header: String
    /// Each key with its text, in document order; keys are unique.
    var blocks: [Block]
    /// The bytes before the front-matter text (BOM and opening fence line).
    var opening: Data
    /// The bytes from the closing fence to the body.
    var closing: Data
    /// Whether the document is a whole YAML file (no fences, no body).
    var wholeFile: Bool

    /// Cuts `document`; nil when its top-level keys cannot be told apart line by line (a key
    /// not at the start of a line, a value continued at the first column, a repeated key).
    init?(_ document: NoteDocument) {
        let bytes = document.serialized()
        let text = document.frontMatterText, keys = document.keys, content = Data(text.utf8)
        let bodyStart = bytes.count - Data(document.body.utf8).count
        // After the opening fence line; for a whole YAML file, at the start (after a BOM).
        let fenced = bytes.firstIndex(of: 0x0A).map { $0 + 1 }
        let starts = [fenced, bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0].compactMap { $0 }
        guard Set(keys).count == keys.count, let start = starts.first(where: { start in
            start + content.count <= bodyStart && bytes[start..<(start + content.count)] == content
        }) else { return nil }
        opening = bytes[..<start]
        closing = bytes[(start + content.count)..<bodyStart]
        wholeFile = start != fenced

        var header = "", blocks: [Block] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map({ $0 + "\n" }) {
            if Self.startsKey(line) {
                guard blocks.count < keys.count else { return nil }
                let key = keys[blocks.count]
                guard line.hasPrefix(key) || line.hasPrefix("\"") || line.hasPrefix("'") else { return nil }
                blocks.append(Block(key: key, text: String(line), gap: ""))
            } else if blocks.isEmpty {
                header += line
            } else if line.hasPrefix("#") || line.allSatisfy({ $0.isWhitespace }) {
                blocks[blocks.count - 1].gap += line
            } else {
                // A value line after a gap: the gap was inside the value.
                blocks[blocks.count - 1].text += blocks[blocks.count - 1].gap + line
                blocks[blocks.count - 1].gap = ""
            }
        }
        guard blocks.count == keys.count else { return nil }
        self.header = header
        self.blocks = blocks
    }

    /// Whether a front-matter line starts a top-level key: it begins at the first column and
    /// is no comment, sequence item, blank line or document marker.
    private static func startsKey(_ line: Substring) -> Bool {
        guard let first = line.utf8.first else { return false }
        return ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "#"), UInt8(ascii: "-"), UInt8(ascii: "\r"),
                 UInt8(ascii: "\n"), UInt8(ascii: "."), UInt8(ascii: "%")].contains(first)
    }

    /// The front matter merged text by text against `base`: a key whose text changed on one
    /// side takes that side's text (or goes, when that side removed it); a key whose text
    /// changed on both sides keeps the winner's and is returned in `collided` for the value
    /// rules. Comment lines changed on both sides keep the winner's; where that drops the
    /// loser's, their place is returned in `droppedComments` ("at the top", "after 'key'").
    /// Keys only the loser has come last, in its order. Nil when any side cannot be cut or the
    /// result would not read back as editable front matter with the same keys.
    static func merge(base: NoteDocument, winner: NoteDocument, loser: NoteDocument)
        -> (document: NoteDocument, collided: [String], droppedComments: [String])? {
        guard let old = FrontMatterBlocks(base), let mine = FrontMatterBlocks(winner), let theirs = FrontMatterBlocks(loser)
        else { return nil }
        let (oldBlocks, theirBlocks) = (old.byKey, theirs.byKey)
        var collided: [String] = [], droppedComments: [String] = []
        /// The changed side's text, or the winner's where both changed it (then `key` collided,
        /// or for comment lines the loser's, when any, dropped at `place`).
        func pick(_ original: String?, _ winning: String?, _ losing: String?, key: String? = nil, place: String = "") -> String? {
            if winning == losing || losing == original { return winning }
            if winning == original { return losing }
            if let key { collided.append(key) } else if losing?.isEmpty == false { droppedComments.append(place) }
            return winning
        }
        var text = pick(old.header, mine.header, theirs.header, place: "at the top") ?? ""
        var keys: [String] = []
        func add(_ key: String, winning: Block?, losing: Block?) {
            let original = oldBlocks[key]
            if let chosen = pick(original?.text, winning?.text, losing?.text, key: key) {
                text += chosen
                keys.append(key)
            }
            text += pick(original?.gap ?? "", winning?.gap ?? "", losing?.gap ?? "", place: "after '\(key)'") ?? ""
        }
        for block in mine.blocks { add(block.key, winning: block, losing: theirBlocks[block.key]) }
        let winnerKeys = Set(mine.blocks.map(\.key))
        for block in theirs.blocks where !winnerKeys.contains(block.key) { add(block.key, winning: nil, losing: block) }
        var data = mine.opening
        data.append(Data(text.utf8))
        data.append(mine.closing)
        data.append(Data(winner.body.utf8))
        let document = mine.wholeFile ? NoteDocument(yamlFile: data, timeZone: winner.timeZone)
            : NoteDocument(data: data, timeZone: winner.timeZone)
        guard document.format == .yaml, document.isEditable, document.keys == keys else { return nil }
        return (document, collided, droppedComments)
    }

    /// Each key's block.
    private var byKey: [String: Block] {
        Dictionary(blocks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
