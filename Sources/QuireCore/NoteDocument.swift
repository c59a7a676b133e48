import Foundation

/// An editable, byte-faithful view of one note file. Loading never fails; an untouched
/// document serializes to exactly the bytes it was loaded from. `set` and `remove` are
/// surgical: only the lines of the key concerned change; key order, comments, quoting, unknown
/// keys, line endings, the BOM and the body stay byte for byte. Unreadable front matter
/// (invalid YAML, not UTF-8, binary, too large, alias bomb, not a mapping) and TOML front
/// matter are never rewritten: edits throw.
public struct NoteDocument: Sendable, Equatable {
    /// The file's bytes as they are now.
    private(set) var bytes: [UInt8]
    private(set) var layout = FrontMatterLayout()
    private(set) var entries: [YAMLEntry] = []
    private var flowRoot = false
    private var binary = false
    private var bare = false
    /// Problems found in the front matter (empty when it reads cleanly).
    public private(set) var problems: [NoteProblem] = []
    /// The zone used for date-only and naive times read and written.
    public var timeZone: TimeZone

    /// Loads a document from a file's bytes. Never fails.
    public init(data: Data, timeZone: TimeZone = .current) {
        self.bytes = [UInt8](data)
        self.timeZone = timeZone
        reload()
    }

    /// Loads a whole file of YAML without fences (such as `.quire/config.yml`) for surgical
    /// editing with the same rules; `body` is empty. Never fails.
    public init(yamlFile data: Data, timeZone: TimeZone = .current) {
        self.bytes = [UInt8](data)
        self.timeZone = timeZone
        self.bare = true
        reload()
    }

    /// The kind of front matter (`.none` when the file has none yet).
    public var format: FrontMatterFormat { layout.format }

    /// Whether `set` and `remove` can edit this document.
    public var isEditable: Bool { (try? checkEditable(key: "")) != nil }

    /// The top-level front-matter entries in document order.
    public var frontMatter: [FrontMatterEntry] {
        entries.map { FrontMatterEntry(key: $0.key, value: $0.value) }
    }

    /// The value of `key` (exact match first, then case-insensitive), or nil.
    public func value(forKey key: String) -> FrontMatterValue? {
        entry(forKey: key).map { entries[$0].value }
    }

    /// The top-level keys in document order.
    public var keys: [String] { entries.map(\.key) }

    /// The front-matter text between the fences, exactly as written (empty without front matter).
    public var frontMatterText: String {
        String(decoding: bytes[layout.contentStart..<layout.contentEnd], as: UTF8.self)
    }

    /// The exact text of the lines holding `key` and its value (with their line breaks), or nil
    /// when the key is missing or shares a line with another key.
    public func lines(forKey key: String) -> String? {
        guard let index = entry(forKey: key), let span = try? lineSpan(index) else { return nil }
        return String(decoding: bytes[span], as: UTF8.self)
    }

    /// The line break this document writes (`"\r\n"` when its first line ends with CRLF).
    public var lineEnding: String { layout.usesCRLF ? "\r\n" : "\n" }

    /// The body: everything after the closing fence line (the whole file but the BOM when there
    /// is no front matter). Setting it replaces only those bytes.
    public var body: String {
        get { String(decoding: bytes[layout.bodyStart...], as: UTF8.self) }
        set {
            bytes.replaceSubrange(layout.bodyStart..., with: Array(newValue.utf8))
            reload()
        }
    }

    /// The file's bytes.
    public func serialized() -> Data { Data(bytes) }

    /// The note as `NoteParser` reads the current bytes.
    public func note(path: String) -> Note {
        NoteParser.parse(serialized(), path: path, timeZone: timeZone)
    }

    /// The note's front-matter fields as `NoteParser` reads the current bytes, without the body
    /// or its word count (cheaper than `note(path:)` when only fields such as `updatedAt` matter).
    public func fields(path: String) -> Note {
        NoteParser.parseFrontMatter(serialized(), path: path, timeZone: timeZone)
    }

    /// Sets `key` to `value`: rewrites only that key's lines (or only its value, keeping a
    /// trailing comment, when old and new value fit on one line). The key is matched exactly,
    /// else case-insensitively (the note's spelling is kept); a new key is appended at the end
    /// of the front matter; a file without front matter gets one.
    public mutating func set(_ key: String, _ value: FrontMatterValue) throws {
        try Self.validate(key: key)
        try checkEditable(key: key)
        var value = value
        if case let .date(date, text) = value, Timestamp.parse(text, timeZone: timeZone) == nil {
            value = .timestamp(date, timeZone: timeZone)
        }
        let saved = self
        if layout.format == .none {
            let text = "---" + lineEnding + FrontMatterRenderer.entry(key: key, value: value, newline: lineEnding)
                + "---" + lineEnding
            bytes.insert(contentsOf: Array(text.utf8), at: layout.bomLength)
        } else if let index = entry(forKey: key) {
            try replace(index, with: value)
        } else {
            let text = FrontMatterRenderer.entry(key: key, value: value, newline: lineEnding)
            var insertion = Array(text.utf8)
            let contentEnd = layout.contentEnd
            if contentEnd > layout.contentStart, bytes[contentEnd - 1] != 0x0A {
                insertion.insert(contentsOf: Array(lineEnding.utf8), at: 0)
            }
            bytes.insert(contentsOf: insertion, at: contentEnd)
        }
        reload()
        guard !problems.contains(where: { $0.kind != .badValue }), let written = entry(forKey: key).map({ entries[$0] }),
              Self.readsBack(value, as: written.value) else {
            self = saved
            throw CoreError.editFailed(key: key, reason: saved.anchorInUse(key: key) ?? "the new value would not read back as written")
        }
    }

    /// Removes every occurrence of `key` (its lines only; when the key is not spelled exactly
    /// so, its case-insensitive matches). Removing a missing key does nothing.
    public mutating func remove(_ key: String) throws {
        try Self.validate(key: key)
        try checkEditable(key: key)
        guard let first = entry(forKey: key) else { return }
        let spelling = entries[first].key
        let spans = try entries.indices.filter { entries[$0].key == spelling }.map(lineSpan)
        let saved = self
        for span in spans.reversed() { bytes.removeSubrange(span) }
        reload()
        // An alias elsewhere may name an anchor in the removed lines: never leave unreadable YAML.
        guard !problems.contains(where: { $0.kind != .badValue }) else {
            self = saved
            throw CoreError.editFailed(key: key, reason: saved.anchorInUse(key: key) ?? "the front matter would not read without it")
        }
    }

    /// Renames the first `key` (matched like `set`) to `newKey` in place: only the key's text
    /// changes, its value, comment and place stay. A missing key does nothing; an existing
    /// `newKey` (exact spelling) refuses the rename.
    public mutating func renameKey(_ key: String, to newKey: String) throws {
        try Self.validate(key: newKey)
        try checkEditable(key: key)
        guard let index = entry(forKey: key) else { return }
        guard !entries.contains(where: { $0.key == newKey }) else {
            throw CoreError.editFailed(key: newKey, reason: "the key already exists")
        }
        let entry = entries[index]
        let saved = self
        bytes.replaceSubrange(entry.keyStart..<entry.keyEnd, with: Array(FrontMatterRenderer.key(newKey).utf8))
        reload()
        guard !problems.contains(where: { $0.kind != .badValue }), entries.count == saved.entries.count,
              entries[index].key == newKey, Self.readsBack(entry.value, as: entries[index].value) else {
            self = saved
            throw CoreError.editFailed(key: key, reason: "the renamed key would not read back as written")
        }
    }

    // MARK: - Internals

    private func entry(forKey key: String) -> Int? {
        if let exact = entries.firstIndex(where: { $0.key == key }) { return exact }
        let lowered = key.lowercased()
        return entries.firstIndex(where: { $0.key.lowercased() == lowered })
    }

    private mutating func reload() {
        let (layout, scan, binary) = bytes.withUnsafeBufferPointer { buffer in
            let layout = bare ? FrontMatterLayout.bare(buffer) : FrontMatterLayout.split(buffer)
            let binary = buffer.baseAddress.map { memchr($0, 0, buffer.count) != nil } ?? false
            if binary { return (layout, NoteParser.FrontMatterScan(), true) }
            return (layout, NoteParser.readFrontMatter(buffer, layout: layout, timeZone: timeZone), false)
        }
        self.layout = layout
        self.binary = binary
        self.flowRoot = scan.flowRoot
        self.problems = scan.problems
        let start = layout.contentStart
        self.entries = scan.entries.map { entry in
            var shifted = entry
            shifted.keyStart += start; shifted.keyEnd += start
            shifted.valueStart += start; shifted.valueEnd += start; shifted.contentEnd += start
            return shifted
        }
    }

    private static func validate(key: String) throws {
        if key.isEmpty || key.contains(where: { $0.isNewline }) || key.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw CoreError.invalidKey(key: key)
        }
    }

    private func checkEditable(key: String) throws {
        if binary { throw CoreError.unreadableFrontMatter(line: nil, reason: "the file is binary") }
        if layout.format == .toml { throw CoreError.readOnlyFrontMatter(format: .toml) }
        if let problem = problems.first(where: { $0.kind != .badValue }) {
            throw CoreError.unreadableFrontMatter(line: problem.line, reason: problem.message)
        }
        if flowRoot { throw CoreError.editFailed(key: key, reason: "the front matter is one flow mapping") }
    }

    /// The first byte of the line holding `offset`.
    private func lineStart(_ offset: Int) -> Int {
        var index = offset
        while index > layout.contentStart, bytes[index - 1] != 0x0A { index -= 1 }
        return index
    }

    /// The byte after the line break ending the line holding `offset` (within the front matter).
    private func lineEnd(_ offset: Int) -> Int {
        var index = offset
        while index < layout.contentEnd, bytes[index] != 0x0A { index += 1 }
        return min(index + 1, layout.contentEnd)
    }

    /// The whole lines of entry `index`, refusing entries that share a line with another.
    /// Why `key`'s lines cannot change: they hold an anchor (`&name`) that an alias (`*name`)
    /// elsewhere in the front matter refers to, named with the key holding the alias. Nil when
    /// they hold none in use.
    func anchorInUse(key: String) -> String? {
        guard let index = entry(forKey: key), let span = try? lineSpan(index) else { return nil }
        let own = String(decoding: bytes[span], as: UTF8.self)
        let nameCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-."))
        var search = own.startIndex
        while let amp = own[search...].firstIndex(of: "&") {
            let name = own[own.index(after: amp)...].prefix { $0.unicodeScalars.allSatisfy(nameCharacters.contains) }
            search = own.index(after: amp)
            guard !name.isEmpty else { continue }
            for (other, entry) in entries.enumerated() where other != index {
                guard let otherSpan = try? lineSpan(other) else { continue }
                let text = String(decoding: bytes[otherSpan], as: UTF8.self)
                if let alias = text.range(of: "*" + name),
                   text[alias.upperBound...].unicodeScalars.first.map({ !nameCharacters.contains($0) }) ?? true {
                    return "'\(entry.key)' refers to its anchor &\(name) (*\(name)); change or remove '\(entry.key)' first"
                }
            }
        }
        return nil
    }

    private func lineSpan(_ index: Int) throws -> Range<Int> {
        let entry = entries[index]
        let start = lineStart(entry.keyStart)
        let last = entry.contentEnd > entry.keyEnd ? entry.contentEnd - 1 : entry.keyEnd
        let end = lineEnd(last)
        let previousEnd = index > 0 ? lineEnd(max(entries[index - 1].contentEnd - 1, entries[index - 1].keyEnd)) : 0
        let nextStart = index + 1 < entries.count ? entries[index + 1].keyStart : Int.max
        guard start >= previousEnd, end <= nextStart, start == layout.contentStart || bytes[start - 1] == 0x0A,
              bytes[start..<entry.keyStart].allSatisfy({ $0 == 0x20 }) else {
            throw CoreError.editFailed(key: entry.key, reason: "the key shares its line with another key")
        }
        return start..<end
    }

    private mutating func replace(_ index: Int, with value: FrontMatterValue) throws {
        let entry = entries[index]
        let span = try lineSpan(index)
        let inlineStyles: [YAMLEntry.Style] = [.plain, .singleQuoted, .doubleQuoted, .flowCollection]
        let isBlockMap: Bool = { if case let .map(items) = value { return !items.isEmpty } else { return false } }()
        if inlineStyles.contains(entry.style), entry.valueEnd > entry.valueStart, !isBlockMap {
            let text = FrontMatterRenderer.inline(value, preferring: entry.style)
            bytes.replaceSubrange(entry.valueStart..<entry.valueEnd, with: Array(text.utf8))
            return
        }
        if entry.style == .blockSequence, case let .list(items) = value, !items.isEmpty,
           items.allSatisfy({ FrontMatterRenderer.isScalar($0) }) {
            let itemStart = lineStart(entry.valueStart)
            let indent = String(decoding: bytes[itemStart..<entry.valueStart], as: UTF8.self)
            let text = items.map { indent + "- " + FrontMatterRenderer.inline($0) + lineEnding }.joined()
            bytes.replaceSubrange(itemStart..<span.upperBound, with: Array(text.utf8))
            return
        }
        let keyText = String(decoding: bytes[span.lowerBound..<entry.keyEnd], as: UTF8.self)
        let text = FrontMatterRenderer.entry(keyText: keyText, value: value, newline: lineEnding)
        bytes.replaceSubrange(span, with: Array(text.utf8))
    }

    /// Whether `actual`, read back after writing `expected`, is the same value.
    static func readsBack(_ expected: FrontMatterValue, as actual: FrontMatterValue) -> Bool {
        switch (expected, actual) {
        case let (.date(want, wantText), .date(got, gotText)):
            return wantText.isEmpty ? abs(want.timeIntervalSince(got)) < 1 : wantText == gotText
        case let (.float(want), .float(got)) where want.isNaN: return got.isNaN
        case let (.list(want), .list(got)):
            return want.count == got.count && zip(want, got).allSatisfy { readsBack($0, as: $1) }
        case let (.map(want), .map(got)):
            return want.count == got.count
                && zip(want, got).allSatisfy { $0.key == $1.key && readsBack($0.value, as: $1.value) }
        default: return expected == actual
        }
    }
}
