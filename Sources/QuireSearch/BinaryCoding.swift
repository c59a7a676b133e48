import Foundation
import QuireCore

/// Appends little-endian values to a byte buffer (the cache format).
struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }

    mutating func double(_ value: Double) { u64(value.bitPattern) }

    mutating func string(_ value: String) {
        u32(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optionalString(_ value: String?) {
        u8(value == nil ? 0 : 1)
        if let value { string(value) }
    }

    mutating func strings(_ values: [String]) {
        u32(UInt32(values.count))
        for value in values { string(value) }
    }

    mutating func date(_ value: Date?) {
        u8(value == nil ? 0 : 1)
        if let value { double(value.timeIntervalSince1970) }
    }

    mutating func value(_ value: FrontMatterValue) {
        switch value {
        case .null: u8(0)
        case .bool(let flag): u8(1); u8(flag ? 1 : 0)
        case .int(let number): u8(2); int(number)
        case .float(let number): u8(3); double(number)
        case .string(let text): u8(4); string(text)
        case .date(let date, let text): u8(5); double(date.timeIntervalSince1970); string(text)
        case .list(let items): u8(6); u32(UInt32(items.count)); for item in items { self.value(item) }
        case .map(let entries): u8(7); self.entries(entries)
        }
    }

    mutating func entries(_ entries: [FrontMatterEntry]) {
        u32(UInt32(entries.count))
        for entry in entries { string(entry.key); value(entry.value) }
    }

    /// The bits of a record's flag byte that say its front-matter format (8: YAML, 16: TOML).
    static func formatBits(_ format: FrontMatterFormat) -> UInt8 {
        switch format {
        case .yaml: return 8
        case .toml: return 16
        case .none: return 0
        }
    }

    mutating func record(_ record: NoteRecord) {
        string(record.path); string(record.folder); optionalString(record.id); string(record.title)
        strings(record.tags); optionalString(record.project)
        u8((record.draft ? 1 : 0) | (record.pinned ? 2 : 0) | (record.hasTitle ? 4 : 0) | Self.formatBits(record.format))
        optionalString(record.color)
        u8(record.mood == nil ? 0 : 1); if let mood = record.mood { int(mood) }
        u8(record.priority == nil ? 0 : 1); if let priority = record.priority { value(priority) }
        strings(record.aliases); date(record.createdAt); date(record.updatedAt); int(record.words)
        u8(DateSourceCode.code(record.createdAtSource)); u8(DateSourceCode.code(record.updatedAtSource))
        entries(record.extraFrontMatter)
        // The full front matter after its length, written in place and the length set after.
        let lengthAt = bytes.count
        u32(0)
        entries(record.frontMatter)
        withUnsafeBytes(of: UInt32(bytes.count - lengthAt - 4).littleEndian) { length in
            bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: length)
        }
        u32(UInt32(record.problems.count))
        for problem in record.problems {
            string(problem.kind.rawValue); int(problem.line ?? -1); string(problem.message)
        }
        links(record.links, anchors: record.anchors)
    }
}

/// Reads what `BinaryWriter` wrote; every read is bounds-checked and throws on bad data.
struct BinaryReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    var offset = 0

    /// The mapped memory `base` lies in at `baseOffset`, when records should refer to it.
    var memory: ColumnMemory?
    var baseOffset = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    private mutating func take(_ length: Int) throws(CacheError) -> UnsafePointer<UInt8> {
        guard length >= 0, offset + length <= count else { throw .corrupt("truncated data") }
        defer { offset += length }
        return base + offset
    }

    mutating func u8() throws(CacheError) -> UInt8 { try take(1).pointee }

    mutating func u32() throws(CacheError) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(try take(4)).loadUnaligned(as: UInt32.self))
    }

    mutating func u64() throws(CacheError) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(try take(8)).loadUnaligned(as: UInt64.self))
    }

    mutating func int() throws(CacheError) -> Int { Int(Int64(bitPattern: try u64())) }

    mutating func double() throws(CacheError) -> Double { Double(bitPattern: try u64()) }

    mutating func string() throws(CacheError) -> String {
        let length = Int(try u32())
        return String(decoding: UnsafeBufferPointer(start: try take(length), count: length), as: UTF8.self)
    }

    mutating func optionalString() throws(CacheError) -> String? {
        try u8() == 0 ? nil : try string()
    }

    mutating func strings() throws(CacheError) -> [String] {
        let size = Int(try u32())
        guard size <= count - offset else { throw .corrupt("bad list length") }
        var result: [String] = []
        result.reserveCapacity(size)
        for _ in 0..<size { result.append(try string()) }
        return result
    }

    mutating func date() throws(CacheError) -> Date? {
        try u8() == 0 ? nil : Date(timeIntervalSince1970: try double())
    }

    mutating func value(depth: Int = 0) throws(CacheError) -> FrontMatterValue {
        guard depth < 64 else { throw .corrupt("value nested too deeply") }
        switch try u8() {
        case 0: return .null
        case 1: return .bool(try u8() != 0)
        case 2: return .int(try int())
        case 3: return .float(try double())
        case 4: return .string(try string())
        case 5:
            let date = Date(timeIntervalSince1970: try double())
            return .date(date, text: try string())
        case 6:
            let size = Int(try u32())
            guard size <= count - offset else { throw .corrupt("bad list length") }
            var items: [FrontMatterValue] = []
            for _ in 0..<size { items.append(try value(depth: depth + 1)) }
            return .list(items)
        case 7: return .map(try entries(depth: depth + 1))
        default: throw .corrupt("unknown value tag")
        }
    }

    mutating func entries(depth: Int = 0) throws(CacheError) -> [FrontMatterEntry] {
        let size = Int(try u32())
        guard size <= count - offset else { throw .corrupt("bad entry count") }
        var result: [FrontMatterEntry] = []
        result.reserveCapacity(size)
        for _ in 0..<size {
            let key = try string()
            result.append(FrontMatterEntry(key: key, value: try value(depth: depth)))
        }
        return result
    }

    /// The first fields of a record: every one but its other front-matter keys, its problems and
    /// its links (what names, dates, counts and sorts a note), which keep their defaults.
    mutating func recordHead() throws(CacheError) -> NoteRecord {
        var record = NoteRecord(path: try string())
        record.folder = try string(); record.id = try optionalString(); record.title = try string()
        record.tags = try strings(); record.project = try optionalString()
        let flags = try u8()
        record.draft = flags & 1 != 0; record.pinned = flags & 2 != 0; record.hasTitle = flags & 4 != 0
        record.format = flags & 8 != 0 ? .yaml : flags & 16 != 0 ? .toml : .none
        record.color = try optionalString()
        record.mood = try u8() == 0 ? nil : try int()
        record.priority = try u8() == 0 ? nil : try value()
        record.aliases = try strings(); record.createdAt = try date(); record.updatedAt = try date()
        record.words = try int()
        record.createdAtSource = DateSourceCode.source(try u8()); record.updatedAtSource = DateSourceCode.source(try u8())
        return record
    }

    mutating func record() throws(CacheError) -> NoteRecord {
        var record = try recordHead()
        record.setExtraFrontMatter(try entries())
        let length = Int(try u32())
        let start = try take(length)
        if let memory {
            record.frontMatterStorage = FrontMatterStorage(memory: memory, offset: baseOffset + (start - base), count: length)
        } else {
            var encoded = BinaryReader(base: start, count: length)
            record.frontMatterStorage = FrontMatterStorage(try encoded.entries())
        }
        let problems = Int(try u32())
        guard problems <= count - offset else { throw .corrupt("bad problem count") }
        for _ in 0..<problems {
            let kind = NoteProblem.Kind(rawValue: try string()) ?? .badValue
            let line = try int()
            record.problems.append(NoteProblem(kind: kind, line: line < 0 ? nil : line, message: try string()))
        }
        (record.links, record.anchors) = try links()
        return record
    }
}

/// A `DateSource` in the cache: 0 none, 255 the file's modification time, 254 git, else 1 + the key's
/// place in `keys` (a `createdAt` may come from an `updatedAt` key: one list for both).
enum DateSourceCode {
    static let keys = NoteFields.createdAtKeys + NoteFields.updatedAtKeys

    static func code(_ source: DateSource?) -> UInt8 {
        switch source {
        case nil: return 0
        case .fileModified?: return 255
        case .git?: return 254
        case .frontMatter(let key)?: return keys.firstIndex(of: key).map { UInt8($0 + 1) } ?? 0
        }
    }

    static func source(_ code: UInt8) -> DateSource? {
        if code == 255 { return .fileModified }
        if code == 254 { return .git }
        return code > 0 && Int(code) <= keys.count ? .frontMatter(keys[Int(code) - 1]) : nil
    }
}
