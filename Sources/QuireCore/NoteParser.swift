import Foundation

/// Reads a note file into a `Note`. Never throws and never crashes: whatever is wrong with the
/// file is recorded in `Note.problems` and the note is returned with what could be read.
///
/// - A file with a NUL byte is `binary`: nothing is parsed, `body` is empty, `words` 0.
/// - Front matter over `maxFrontMatterBytes`, not UTF-8, invalid YAML, an alias bomb, nesting
///   deeper than 64 or a non-mapping is reported and left unread (entries read before a YAML
///   error are kept); the body is still read.
/// - A body that is not UTF-8 is decoded with replacement characters and reported.
/// - Files without front matter never reach libyaml. Safe to call from several threads.
public enum NoteParser {
    /// Front matter larger than this is not parsed (`tooLarge`); bodies have no bound.
    public static let maxFrontMatterBytes = 1 << 20

    /// Parses `data` (the bytes of the file at vault-relative `path`) in the local time zone.
    public static func parse(_ data: Data, path: String) -> Note {
        parse(data, path: path, timeZone: .current)
    }

    /// Parses `data`, reading date-only and naive times in `timeZone`.
    public static func parse(_ data: Data, path: String, timeZone: TimeZone) -> Note {
        var note = Note(path: path, folder: folder(of: path), title: stem(of: path))
        data.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self), into: &note, timeZone: timeZone, readsBody: true)
        }
        return note
    }

    /// Like `parse(_:path:timeZone:)` but without keeping the body or counting its words: the
    /// front matter, the fields read from it and every problem (a body that is not UTF-8
    /// included), for callers that only look at metadata such as `updatedAt`.
    public static func parseFrontMatter(_ data: Data, path: String, timeZone: TimeZone = .current) -> Note {
        var note = Note(path: path, folder: folder(of: path), title: stem(of: path))
        data.withUnsafeBytes { raw in
            parse(raw.bindMemory(to: UInt8.self), into: &note, timeZone: timeZone, readsBody: false)
        }
        return note
    }

    /// Whether `first` and `second` hold the same front matter byte for byte (the opening fence
    /// through the closing one) and neither is binary: every field `parse` reads from the front
    /// matter (`updatedAt` among them) is then the same for both. False for files without
    /// front matter.
    public static func haveSameFrontMatter(_ first: Data, _ second: Data) -> Bool {
        func layout(_ data: Data) -> FrontMatterLayout? {
            data.withUnsafeBytes { raw -> FrontMatterLayout? in
                let bytes = raw.bindMemory(to: UInt8.self)
                if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { return nil }
                return FrontMatterLayout.split(bytes)
            }
        }
        guard let one = layout(first), one.format != .none, let two = layout(second),
              one.bodyStart == two.bodyStart else { return false }
        return first.prefix(one.bodyStart) == second.prefix(two.bodyStart)
    }

    /// The offset of the body in a note file's bytes (after the front matter, if any).
    public static func bodyOffset(of data: Data) -> Int {
        data.withUnsafeBytes { raw in FrontMatterLayout.split(raw.bindMemory(to: UInt8.self)).bodyStart }
    }

    /// The body `parse` gives a note file's bytes, without reading anything else: the text
    /// after the front matter (decoded with replacement characters where it is not UTF-8),
    /// empty for a binary file.
    public static func body(of data: Data) -> String {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let base = bytes.baseAddress, memchr(base, 0, bytes.count) == nil else { return "" }
            let body = UnsafeBufferPointer(rebasing: bytes[FrontMatterLayout.split(bytes).bodyStart...])
            return UTF8Text.string(validating: body) ?? String(decoding: body, as: UTF8.self)
        }
    }

    /// The folder of a vault-relative path (`""` for the root).
    public static func folder(of path: String) -> String {
        var path = path
        if let folder = path.withUTF8(asciiFolder) { return folder }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `folder(of:)` of an ASCII path, byte by byte (nil for any other path): searching
    /// characters backwards costs about 10,000 instructions a path, and a rebuild asks once
    /// per note.
    private static func asciiFolder(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)
    }

    /// The file name without its `.md` extension.
    public static func stem(of path: String) -> String {
        var path = path
        if let stem = path.withUTF8(asciiStem) { return stem }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.lowercased().hasSuffix(".md") ? String(name.dropLast(3)) : name
    }

    /// `stem(of:)` of an ASCII path, byte by byte (nil for any other path): it runs once for
    /// every note a rebuild reads.
    private static func asciiStem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var end = bytes.count
        while end > 0 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard end > 0 else { return String(decoding: bytes, as: UTF8.self) }
        var start = end
        while start > 0 && bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        if end - start >= 3 && bytes[end - 3] == UInt8(ascii: ".") && bytes[end - 2] | 0x20 == UInt8(ascii: "m")
            && bytes[end - 1] | 0x20 == UInt8(ascii: "d") {
            end -= 3
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into note: inout Note, timeZone: TimeZone,
                              readsBody: Bool) {
        if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
            note.problems.append(NoteProblem(kind: .binary, line: nil, message: "file contains nul bytes (binary)"))
            return
        }
        let layout = FrontMatterLayout.split(bytes)
        note.format = layout.format
        if let line = ConflictMarkers.firstLine(in: bytes) {
            note.problems.append(NoteProblem(kind: .conflictMarkers, line: line,
                                             message: "git's conflict markers (<<<<<<<, =======, >>>>>>>) are left in the note: keep the text you want and delete the markers"))
        }
        let scan = readFrontMatter(bytes, layout: layout, timeZone: timeZone)
        note.problems += scan.problems
        var texts: [String?] = []
        var lines: [Int] = []
        for (position, entry) in scan.entries.enumerated() where !scan.isDuplicate[position] {
            note.frontMatter.append(FrontMatterEntry(key: entry.key, value: entry.value))
            texts.append(entry.scalarText)
            lines.append(scan.lines[position])
        }
        if layout.format == .toml {
            let content = UnsafeBufferPointer(rebasing: bytes[layout.contentStart..<layout.contentEnd])
            note.frontMatter = TOMLReader.read(String(decoding: content, as: UTF8.self), timeZone: timeZone)
        }
        NoteFields.apply(to: &note, texts: texts, lines: lines, timeZone: timeZone)
        let body = UnsafeBufferPointer(rebasing: bytes[layout.bodyStart...])
        if let text = UTF8Text.string(validating: body) {
            if readsBody {
                note.body = text
                readBody(bytes, layout: layout, into: &note)
            }
        } else {
            if readsBody { note.body = String(decoding: body, as: UTF8.self) }
            note.problems.append(NoteProblem(kind: .notUTF8, line: nil, message: "body is not valid utf-8"))
            if readsBody { readRepairedBody(bytes, layout: layout, into: &note) }
        }
    }

    /// What was read from a file's YAML front matter.
    struct FrontMatterScan {
        var entries: [YAMLEntry] = []
        var problems: [NoteProblem] = []
        /// File line of each entry's key.
        var lines: [Int] = []
        /// Whether each entry repeats the key of an earlier one.
        var isDuplicate: [Bool] = []
        var flowRoot = false
        var duplicateKey: String?
    }

    /// Reads the YAML front matter of `bytes` (nothing for other formats).
    static func readFrontMatter(_ bytes: UnsafeBufferPointer<UInt8>, layout: FrontMatterLayout,
                                timeZone: TimeZone) -> FrontMatterScan {
        var scan = FrontMatterScan()
        guard layout.format == .yaml else { return scan }
        let size = layout.contentEnd - layout.contentStart
        guard size <= maxFrontMatterBytes else {
            scan.problems.append(NoteProblem(kind: .tooLarge, line: layout.contentFirstLine,
                message: "front matter is larger than \(maxFrontMatterBytes / 1024) kib and is not read"))
            return scan
        }
        let content = UnsafeBufferPointer(rebasing: bytes[layout.contentStart..<layout.contentEnd])
        guard String(validating: content, as: UTF8.self) != nil else {
            scan.problems.append(NoteProblem(kind: .notUTF8, line: layout.contentFirstLine, message: "front matter is not valid utf-8"))
            return scan
        }
        let result = YAMLReader.read(content, firstLine: layout.contentFirstLine, timeZone: timeZone)
        scan.entries = result.entries
        scan.problems = result.problems
        scan.flowRoot = result.flowRoot
        var line = layout.contentFirstLine, position = 0
        var seen = Set<String>()
        for (index, entry) in result.entries.enumerated() {
            for offset in position..<max(position, entry.keyStart) where content[offset] == 0x0A { line += 1 }
            position = max(position, entry.keyStart)
            scan.lines.append(line)
            // Few keys: a linear scan is cheaper than hashing.
            let duplicate = result.entries.count <= 32
                ? result.entries[..<index].contains { $0.key == entry.key }
                : !seen.insert(entry.key).inserted
            scan.isDuplicate.append(duplicate)
            if duplicate, scan.duplicateKey == nil {
                scan.duplicateKey = entry.key
                scan.problems.append(NoteProblem(kind: .badValue, line: line,
                                                 message: "duplicate key '\(entry.key)' (the first one is used)"))
            }
        }
        return scan
    }
}
