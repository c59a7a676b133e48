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
    /// The path keys (`pathKey(path, isFolder)`) and their verdicts in the order the walk that
    /// wrote the file asked them: a walk asks in the same order (a folder tree's), so the next
    /// path is nearly always the one after the last found, and found without hashing.
    private var pathKeys: [UInt64]
    private var verdicts: [Verdict]
    /// Where the next path is looked for first: just after the last one found.
    private var cursor = 0
    /// An open-addressing table of indices + 1 into `pathKeys` (0: an empty slot), at most half
    /// full, made the first time a path is not where the order puts it (a path new or gone).
    private var table: [Int32] = []

    static let magic: UInt64 = 0x5155_4952_4549_4733  // "QUIREIG3"
    static let entrySize = 24

    init(key: UInt64, capacity: Int = 0) {
        self.key = key
        pathKeys = []
        verdicts = []
        pathKeys.reserveCapacity(capacity)
        verdicts.reserveCapacity(capacity)
    }

    /// How many verdicts there are.
    var count: Int { pathKeys.count }

    /// The verdict recorded for the path key a walk asks next: looked for just after the last
    /// one found, then in the table.
    mutating func next(_ pathKey: UInt64) -> Verdict? {
        if cursor < pathKeys.count, pathKeys[cursor] == pathKey {
            cursor += 1
            return verdicts[cursor - 1]
        }
        guard let index = indexInTable(pathKey) else { return nil }
        cursor = index + 1
        return verdicts[index]
    }

    /// The verdict recorded for a path key (a folder's, asked again once the walk has entered
    /// it: nearly always the last one found, or the next).
    mutating func verdict(_ pathKey: UInt64) -> Verdict? {
        if cursor > 0, pathKeys[cursor - 1] == pathKey { return verdicts[cursor - 1] }
        if cursor < pathKeys.count, pathKeys[cursor] == pathKey {
            cursor += 1
            return verdicts[cursor - 1]
        }
        return indexInTable(pathKey).map { verdicts[$0] }
    }

    /// Every path key and its verdict, in the order recorded.
    var entries: [(UInt64, Verdict)] {
        Array(zip(pathKeys, verdicts))
    }

    /// Adds a verdict for a path key not yet recorded (the file holds each key once).
    mutating func append(_ pathKey: UInt64, _ verdict: Verdict) {
        pathKeys.append(pathKey)
        verdicts.append(verdict)
        table = []
    }

    /// The index of `pathKey` in `pathKeys`, by the table (made at the first call).
    private mutating func indexInTable(_ pathKey: UInt64) -> Int? {
        if table.isEmpty {
            var size = 16
            while size < pathKeys.count * 2 { size *= 2 }
            table = [Int32](repeating: 0, count: size)
            let mask = size - 1
            for (index, key) in pathKeys.enumerated() {
                var slot = Int(truncatingIfNeeded: key) & mask
                while table[slot] != 0 && pathKeys[Int(table[slot]) - 1] != key { slot = (slot + 1) & mask }
                if table[slot] == 0 { table[slot] = Int32(index + 1) }
            }
        }
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: pathKey) & mask
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if pathKeys[index] == pathKey { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The verdicts recorded at `path`, when the file is there, whole and written for `key`.
    static func load(_ path: String, key: UInt64) -> IgnoreVerdicts? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 24,
              (data.count - 24) % entrySize == 0 else { return nil }
        return data.withUnsafeBytes { raw -> IgnoreVerdicts? in
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            let count = (data.count - 24) / entrySize
            guard word(0) == magic, word(8) == key, word(16) == UInt64(count) else { return nil }
            var verdicts = IgnoreVerdicts(key: key, capacity: count)
            for index in 0..<count {
                let start = 24 + index * entrySize
                let flags = word(start + 16)
                guard flags <= 1 else { return nil }
                verdicts.pathKeys.append(word(start))
                verdicts.verdicts.append(Verdict(ignored: flags == 1, rules: word(start + 8)))
            }
            return verdicts
        }
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
        try? AtomicFile.write(data, to: URL(fileURLWithPath: path), displayPath: ".quire/cache/ignore-verdicts")
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
