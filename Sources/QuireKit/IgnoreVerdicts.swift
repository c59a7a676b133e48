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
    /// By `pathKey(path, isFolder)`: an open-addressing table (the keys are hashes already, so
    /// a slot is found without hashing again), at most half full; key 0 marks an empty slot.
    private var keys: [UInt64]
    private var values: [Verdict]
    /// How many verdicts the table holds.
    private(set) var count = 0

    static let magic: UInt64 = 0x5155_4952_4549_4733  // "QUIREIG3"
    static let entrySize = 24

    init(key: UInt64, capacity: Int = 0) {
        self.key = key
        var size = 16
        while size < capacity * 2 { size *= 2 }
        keys = [UInt64](repeating: 0, count: size)
        values = [Verdict](repeating: Verdict(ignored: false, rules: 0), count: size)
    }

    /// The verdict recorded for a path key.
    func verdict(_ pathKey: UInt64) -> Verdict? {
        let wanted = pathKey == 0 ? 1 : pathKey
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: wanted) & mask
        while keys[slot] != 0 {
            if keys[slot] == wanted { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Every path key and its verdict, in no particular order.
    var entries: [(UInt64, Verdict)] {
        zip(keys, values).filter { $0.0 != 0 }
    }

    /// Records the verdict for a path key (the table was made with room for every one).
    mutating func insert(_ pathKey: UInt64, _ verdict: Verdict) {
        let wanted = pathKey == 0 ? 1 : pathKey
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: wanted) & mask
        while keys[slot] != 0 && keys[slot] != wanted { slot = (slot + 1) & mask }
        if keys[slot] == 0 { count += 1 }
        keys[slot] = wanted
        values[slot] = verdict
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
                verdicts.insert(word(start), Verdict(ignored: flags == 1, rules: word(start + 8)))
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

    subscript(path: String, isFolder isFolder: Bool) -> Verdict? {
        verdict(Self.pathKey(path, isFolder: isFolder))
    }

    /// A 64-bit key for a path and its kind (`ContentHash` of its bytes): at 100,000 paths the
    /// chance that two share one is about 3 in 10^10.
    static func pathKey(_ path: String, isFolder: Bool) -> UInt64 {
        var path = path
        let hash = path.withUTF8 { ContentHash.hash(UnsafeRawBufferPointer($0)) }
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
