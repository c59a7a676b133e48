import Foundation
import QuireCore

/// The records of an index segment, encoded as a cache file holds them (a segment builder
/// encodes them, or they are in a loaded file): a record is decoded the first time it is asked
/// for, so a command that needs the paths of a few hundred hits among 100,000 notes decodes a
/// few hundred records, and a rebuild keeps 100,000 records in a fraction of the memory their
/// values would take. Paths and the flags are read straight from the encoding.
///
/// Records live at fixed addresses (`pointer(_:)` stays valid for the table's life); decoding
/// is serialised by a lock, so a table can be shared between threads.
final class RecordTable: @unchecked Sendable {
    let count: Int
    private let storage: UnsafeMutablePointer<NoteRecord>
    private var decoded: [Bool]
    private let flags: [UInt8]
    private let encoded: Encoded
    private let lock = NSLock()

    /// Where the encoded records are: each record's offset within the records section.
    private struct Encoded {
        let memory: ColumnMemory
        let recordsOffset: Int
        let recordsLength: Int
        let offsets: UnsafePointer<UInt64>
        /// The path column (`PathColumn`), when the records come from a snapshot file.
        let paths: Paths?
    }

    /// A path column in memory: `count + 1` offsets into `length` bytes at `bytes`.
    struct Paths {
        let offsets: UnsafePointer<UInt64>
        let bytes: UnsafeRawPointer
        let length: Int
    }

    static let problemFlag: UInt8 = 1
    static let pinnedFlag: UInt8 = 2
    /// The note's `createdAt` or `updatedAt` comes from elsewhere than its own front-matter key
    /// (git's history, the file's time, or the other date's key): git's history moving on may
    /// date it anew.
    static let datedElsewhereFlag: UInt8 = 4

    /// The flag byte of a record (what `hasProblems`, `isPinned` and `isDatedElsewhere` read).
    static func flag(of record: NoteRecord) -> UInt8 {
        let own = isKey(record.createdAtSource, among: NoteFields.createdAtKeys)
            && isKey(record.updatedAtSource, among: NoteFields.updatedAtKeys)
        return (record.problems.isEmpty ? 0 : problemFlag) | (record.pinned ? pinnedFlag : 0) | (own ? 0 : datedElsewhereFlag)
    }

    private static func isKey(_ source: DateSource?, among keys: [String]) -> Bool {
        if case .frontMatter(let key)? = source { return keys.contains(key) }
        return false
    }

    /// A table over `count` records encoded in `memory`: the records section at
    /// `recordsOffset` (`recordsLength` bytes), a u64 offset per record at `offsetsOffset`
    /// (checked here: ascending, inside the section) and a flag byte per record at
    /// `flagsOffset`.
    /// `paths`: the path column's offsets and bytes (`PathColumn`), read where a path is asked
    /// for (each clamped to the bytes: a damaged column gives wrong paths, never a bad read).
    convenience init(memory: ColumnMemory, recordsOffset: Int, recordsLength: Int, offsetsOffset: Int,
                     flagsOffset: Int, count: Int,
                     paths: (offsetsOffset: Int, bytesOffset: Int, length: Int)? = nil) throws(CacheError) {
        let offsets = (memory.base + offsetsOffset).assumingMemoryBound(to: UInt64.self)
        var previous: UInt64 = 0
        for index in 0..<count {
            let offset = offsets[index]
            guard offset >= previous, offset <= UInt64(recordsLength), UInt64(recordsLength) - offset >= 4 else {
                throw .corrupt("bad record offset")
            }
            previous = offset
        }
        self.init(encoded: memory, recordsOffset: recordsOffset, recordsLength: recordsLength,
                  offsetsOffset: offsetsOffset, flagsOffset: flagsOffset, count: count,
                  paths: paths.map { place in
                      Paths(offsets: (memory.base + place.offsetsOffset).assumingMemoryBound(to: UInt64.self),
                            bytes: memory.base + place.bytesOffset, length: place.length)
                  })
    }

    /// A table over records encoded here (see `init(memory:…)`; the offsets are known to be
    /// ascending and inside the records section).
    init(encoded memory: ColumnMemory, recordsOffset: Int, recordsLength: Int, offsetsOffset: Int,
         flagsOffset: Int, count: Int, paths: Paths? = nil) {
        let offsets = (memory.base + offsetsOffset).assumingMemoryBound(to: UInt64.self)
        self.count = count
        storage = UnsafeMutablePointer<NoteRecord>.allocate(capacity: max(count, 1))
        decoded = [Bool](repeating: false, count: count)
        flags = Array(UnsafeBufferPointer(start: (memory.base + flagsOffset).assumingMemoryBound(to: UInt8.self),
                                          count: count))
        encoded = Encoded(memory: memory, recordsOffset: recordsOffset, recordsLength: recordsLength, offsets: offsets,
                          paths: paths)
    }

    deinit {
        for index in 0..<count where decoded[index] { (storage + index).deinitialize(count: 1) }
        storage.deallocate()
    }

    /// The record at `index`, decoded on first use; it stays at this address.
    func pointer(_ index: Int) -> UnsafePointer<NoteRecord> {
        lock.lock()
        defer { lock.unlock() }
        if !decoded[index] { decode(index) }
        return UnsafePointer(storage + index)
    }

    /// The records at `indices` (decoded on first use, under one lock).
    func pointers(_ indices: [Int]) -> [UnsafePointer<NoteRecord>] {
        lock.lock()
        defer { lock.unlock() }
        return indices.map { index in
            if !decoded[index] { decode(index) }
            return UnsafePointer(storage + index)
        }
    }

    subscript(index: Int) -> NoteRecord { pointer(index).pointee }

    /// The record at `index` without keeping it: the kept one when it was decoded before, else
    /// one decoded for this call only. A pass over every record (the language server's note
    /// directory) then leaves the table as small as it found it.
    func transientRecord(_ index: Int) -> NoteRecord {
        lock.lock()
        let kept = decoded[index] ? storage[index] : nil
        lock.unlock()
        return kept ?? decoding(index)
    }

    /// The first fields of the record at `index` (`BinaryReader.recordHead`: all but its other
    /// front-matter keys, problems and links), without decoding the rest or keeping it; the kept
    /// record when it was decoded before.
    func head(_ index: Int) -> NoteRecord {
        lock.lock()
        let kept = decoded[index] ? storage[index] : nil
        lock.unlock()
        if let kept { return kept }
        var reader = reader(at: index)
        do throws(CacheError) {
            return try reader.recordHead()
        } catch {
            return decoding(index)
        }
    }

    /// The links of the record at `index`: the kept record's when it was decoded before, else
    /// read from the encoding alone (`BinaryReader.recordLinks`: no record decoded or kept).
    /// None for a record the file cannot give back, as its placeholder has none.
    func links(_ index: Int) -> [NoteLink] {
        lock.lock()
        let kept = decoded[index] ? storage[index].links : nil
        lock.unlock()
        if let kept { return kept }
        var reader = reader(at: index)
        return (try? reader.recordLinks()) ?? []
    }

    /// The links at `ordinals` (ascending places in file order) of the record at `index`, each
    /// with its ordinal, as `links(_:)` gives them (`BinaryReader.recordLinks(at:)`: the others
    /// skipped over); an ordinal past its links gives nothing.
    func links(_ index: Int, at ordinals: [Int]) -> [(ordinal: Int, link: NoteLink)] {
        lock.lock()
        let kept = decoded[index] ? storage[index].links : nil
        lock.unlock()
        if let kept { return ordinals.filter(kept.indices.contains).map { ($0, kept[$0]) } }
        var reader = reader(at: index)
        return (try? reader.recordLinks(at: ordinals)) ?? []
    }

    /// Takes the pages of the file this table was loaded from out of resident memory
    /// (`ColumnMemory.releaseReadPages`; nothing for a table built in memory).
    func releaseReadPages() {
        encoded.memory.releaseReadPages()
    }

    /// How many records are decoded and kept (what a test reads to see that a pass kept none).
    var keptCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return decoded.reduce(0) { $0 + ($1 ? 1 : 0) }
    }

    /// Whether the note at `index` has problems (unreadable front matter and the like).
    func hasProblems(_ index: Int) -> Bool { flags[index] & Self.problemFlag != 0 }

    /// Whether the note at `index` is pinned.
    func isPinned(_ index: Int) -> Bool { flags[index] & Self.pinnedFlag != 0 }

    /// Whether the note at `index` has a date from elsewhere than its front matter.
    func isDatedElsewhere(_ index: Int) -> Bool { flags[index] & Self.datedElsewhereFlag != 0 }

    /// The flag byte of the record at `index` (what a snapshot stores).
    func flag(_ index: Int) -> UInt8 { flags[index] }

    /// Calls `body` with the UTF-8 bytes of the path at `index` (no record decoded).
    func withPath<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(pathBytes(index))
    }

    /// The UTF-8 bytes of the path at `index` where the encoding holds them — the path column
    /// when there is one, else the record's start: valid while the table lives (no record
    /// decoded, nothing copied).
    func pathBytes(_ index: Int) -> UnsafeRawBufferPointer {
        if let paths = encoded.paths {
            let start = Int(min(paths.offsets[index], UInt64(paths.length)))
            let end = Int(min(max(paths.offsets[index + 1], UInt64(start)), UInt64(paths.length)))
            return UnsafeRawBufferPointer(start: paths.bytes + start, count: end - start)
        }
        return Self.path(in: UnsafeRawBufferPointer(start: encoded.memory.base + encoded.recordsOffset,
                                                    count: encoded.recordsLength),
                         at: Int(encoded.offsets[index]))
    }

    /// The path of the record encoded at `offset` of `records` (a u32 length, then its bytes),
    /// cut to the bytes there are.
    static func path(in records: UnsafeRawBufferPointer, at offset: Int) -> UnsafeRawBufferPointer {
        guard let base = records.baseAddress, offset >= 0, records.count - offset >= 4 else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        let length = Int(UInt32(littleEndian: (base + offset).loadUnaligned(as: UInt32.self)))
        return UnsafeRawBufferPointer(start: base + offset + 4, count: min(length, records.count - offset - 4))
    }

    /// Whether the paths are read from a path column (a table loaded from a snapshot file).
    var hasPathColumn: Bool { encoded.paths != nil }

    /// The path at `index` (no record decoded).
    func path(_ index: Int) -> String {
        withPath(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The encoded records and their offsets (u64 each), as a snapshot stores them (it
    /// writes them as they are instead of encoding every record again).
    var encodedSections: (records: UnsafeRawBufferPointer, offsets: UnsafeRawBufferPointer) {
        (UnsafeRawBufferPointer(start: encoded.memory.base + encoded.recordsOffset, count: encoded.recordsLength),
         UnsafeRawBufferPointer(start: encoded.offsets, count: count * 8))
    }

    /// Decodes one record and keeps it (the lock is held).
    private func decode(_ index: Int) {
        (storage + index).initialize(to: decoding(index))
        decoded[index] = true
    }

    /// Decodes one record from the encoding (which never changes: no lock needed). A record the
    /// file cannot give back (a damaged cache) becomes a placeholder that says so, never a crash.
    private func decoding(_ index: Int) -> NoteRecord {
        var record: NoteRecord
        var reader = reader(at: index)
        do throws(CacheError) {
            record = try reader.record()
        } catch {
            record = NoteRecord(path: path(index))
            record.problems = [NoteProblem(kind: .unreadable, line: nil,
                                           message: "the catalog cache is damaged: run 'quire index --rebuild'")]
        }
        return record
    }

    /// A reader at the start of the record at `index` (the encoding never changes: no lock).
    private func reader(at index: Int) -> BinaryReader {
        let offset = Int(encoded.offsets[index])
        var reader = BinaryReader(
            base: (encoded.memory.base + encoded.recordsOffset + offset).assumingMemoryBound(to: UInt8.self),
            count: encoded.recordsLength - offset)
        reader.memory = encoded.memory
        reader.baseOffset = encoded.recordsOffset + offset
        return reader
    }
}
