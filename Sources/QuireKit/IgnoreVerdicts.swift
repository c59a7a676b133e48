import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// git's ignore verdicts of the last full walk of a vault, kept in `.quire/cache/ignore-verdicts`
/// so that the next walk asks libgit2 nothing when nothing that decides a verdict changed.
///
/// Asking libgit2 costs far more than the answer: loading it and its dependencies, and
/// `git_libgit2_init`, which parses every system CA certificate (about 10 ms together on the
/// benchmark machine, more than the rest of a warm `quire search` of 1,000 notes), then the
/// repository and its index. A verdict depends on the rules outside the work tree
/// (`.git/info/exclude`, the git configurations, the excludes file), the `.gitignore` of every
/// folder above the path, and whether the path is tracked (`.git/index`). So a verdict is
/// reused only when:
/// - the `key` matches: the names and stamps of the outside rule files and of `.git/index`;
/// - every folder above the path has the `.gitignore` stamp recorded with the verdicts (one
///   `stat` per folder, none per note);
/// - the path (folder or file) was asked in the walk that wrote the file.
/// Anything else is asked as before (`GitIgnoreRules`), and the walk writes the file anew.
/// A stamp that changed less than `FileStamp.racyWindow` (50 ms) before it was read is never
/// trusted (git's racy-clean rule: a second change within the clock's tick could keep it
/// identical).
struct IgnoreVerdicts {
    /// One verdict: for a folder, also the stamp hash of its `.gitignore` when the verdicts were
    /// recorded (0: none).
    struct Verdict: Equatable {
        var ignored: Bool
        var rules: UInt64
    }

    /// The hash of the outside rule files' names and stamps and of the index's stamp.
    let key: UInt64
    /// The file, mapped: after its header, each path key (`pathKey(path, isFolder)`) with its
    /// verdict (24 bytes), in the order the walk that wrote it asked them. A walk asks in the same
    /// order (a folder tree's), so the next path is nearly always the one after the last found,
    /// and found without hashing; the verdicts are read where they lie, never copied.
    private let file: MappedFile
    /// How many verdicts there are.
    let count: Int
    /// Where the next path is looked for first: just after the last one found.
    private var cursor = 0
    /// An open-addressing table of indices + 1 (0: an empty slot), at most half full, made the
    /// first time a path is not where the order puts it (a path new or gone).
    private var table: [Int32] = []

    static let magic: UInt64 = 0x5155_4952_4549_4733  // "QUIREIG3"
    static let entrySize = 24

    private init(file: MappedFile, key: UInt64, count: Int) {
        self.file = file
        self.key = key
        self.count = count
    }

    /// The little-endian word at `offset` of the file.
    private func word(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The path key of entry `index`.
    private func pathKey(at index: Int) -> UInt64 {
        word(24 + index * Self.entrySize)
    }

    /// The verdict of entry `index`.
    private func verdict(at index: Int) -> Verdict {
        let start = 24 + index * Self.entrySize
        return Verdict(ignored: word(start + 16) == 1, rules: word(start + 8))
    }

    /// The verdict recorded for the path key a walk asks next: looked for just after the last
    /// one found, then in the table.
    mutating func next(_ pathKey: UInt64) -> Verdict? {
        if cursor < count, self.pathKey(at: cursor) == pathKey {
            cursor += 1
            return verdict(at: cursor - 1)
        }
        guard let index = indexInTable(pathKey) else { return nil }
        cursor = index + 1
        return verdict(at: index)
    }

    /// The verdict recorded for a path key (a folder's, asked again once the walk has entered
    /// it: nearly always the last one found, or the next).
    mutating func verdict(_ pathKey: UInt64) -> Verdict? {
        if cursor > 0, self.pathKey(at: cursor - 1) == pathKey { return verdict(at: cursor - 1) }
        if cursor < count, self.pathKey(at: cursor) == pathKey {
            cursor += 1
            return verdict(at: cursor - 1)
        }
        return indexInTable(pathKey).map { verdict(at: $0) }
    }

    /// Every path key and its verdict, in the order recorded.
    var entries: [(UInt64, Verdict)] {
        (0..<count).map { (pathKey(at: $0), verdict(at: $0)) }
    }

    /// The index of `pathKey` among the entries, by the table (made at the first call; of two
    /// entries with one key, the first).
    private mutating func indexInTable(_ pathKey: UInt64) -> Int? {
        if table.isEmpty {
            var size = 16
            while size < count * 2 { size *= 2 }
            table = [Int32](repeating: 0, count: size)
            let mask = size - 1
            for index in 0..<count {
                let key = self.pathKey(at: index)
                var slot = Int(truncatingIfNeeded: key) & mask
                while table[slot] != 0 && self.pathKey(at: Int(table[slot]) - 1) != key { slot = (slot + 1) & mask }
                if table[slot] == 0 { table[slot] = Int32(index + 1) }
            }
        }
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: pathKey) & mask
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if self.pathKey(at: index) == pathKey { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The verdicts recorded at `path`, when the file is there, whole and written for `key`.
    static func load(_ path: String, key: UInt64) -> IgnoreVerdicts? {
        guard let file = MappedFile(path: path), file.bytes.count >= 24,
              (file.bytes.count - 24) % entrySize == 0 else { return nil }
        let count = (file.bytes.count - 24) / entrySize
        let verdicts = IgnoreVerdicts(file: file, key: key, count: count)
        guard verdicts.word(0) == magic, verdicts.word(8) == key, verdicts.word(16) == UInt64(count) else { return nil }
        for index in 0..<count where verdicts.word(24 + index * entrySize + 16) > 1 { return nil }
        return verdicts
    }

    /// Writes `entries` (path keys and verdicts, each key once) for `key` to `path` (atomically;
    /// a failure only costs the next walk its speed).
    static func save(_ entries: [(UInt64, Verdict)], key: UInt64, to path: String) {
        var data = Data(capacity: 24 + entries.count * entrySize)
        func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(magic)
        append(key)
        append(UInt64(entries.count))
        for (path, verdict) in entries {
            append(path)
            append(verdict.rules)
            append(verdict.ignored ? 1 : 0)
        }
        try? AtomicFile.write(data, to: URL(fileURLWithPath: path), displayPath: ".quire/cache/ignore-verdicts", durable: false)
    }

    /// The verdict recorded for a path (as `verdict(_:)`).
    subscript(path: String, isFolder isFolder: Bool) -> Verdict? {
        mutating get { verdict(Self.pathKey(path, isFolder: isFolder)) }
    }

    /// A 64-bit key for a path and its kind (`ContentHash` of its bytes): at 100,000 paths the
    /// chance that two share one is about 3 in 10^10.
    static func pathKey(_ path: String, isFolder: Bool) -> UInt64 {
        let hash = path.utf8.withContiguousStorageIfAvailable { ContentHash.hash(UnsafeRawBufferPointer($0)) } ?? {
            var copy = path  // a string not stored as UTF-8: made contiguous first
            return copy.withUTF8 { ContentHash.hash(UnsafeRawBufferPointer($0)) }
        }()
        return isFolder ? hash ^ 0x9E37_79B9_7F4A_7C15 : hash
    }

    /// A hash of the stamp of the file at `path` (0 when there is none); nil when the file
    /// changed too recently to be trusted or cannot be looked at.
    static func stampHash(_ path: String, now: Int64) -> UInt64? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? 0 : nil
        }
        let stamp = FileStamp(status)
        if stamp.isRacy(now: now) { return nil }
        let hash = (stamp.digest ^ UInt64(status.st_mode)) &* 0xBF58_476D_1CE4_E5B9
        return hash == 0 ? 1 : hash
    }

    /// The key for rule files `files` and the index at `index`: nil when one of them cannot be
    /// trusted (changed just now, or unreadable).
    static func key(files: [String], index: String, now: Int64) -> UInt64? {
        var hash: UInt64 = 0x243F_6A88_85A3_08D3
        for file in files + [index] {
            guard let stamp = stampHash(file, now: now) else { return nil }
            for byte in file.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ stamp) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
        }
        return hash
    }
}
