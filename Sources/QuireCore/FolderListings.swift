import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The sorted entries of every folder the last walk read, with each folder's stamp, kept in
/// `.quire/cache/folder-listings` so that the next walk reads (`getdents`) and sorts only the
/// folders that changed — the idea of git's untracked cache.
///
/// A folder's modification time changes whenever an entry is created, removed or renamed in it,
/// so while its stamp (modification and status-change times, inode) is the one recorded, its
/// entries are the ones recorded. Each folder still costs one `stat`; each note its own `stat`
/// (an edit in place changes no folder), as before. A stamp that changed less than
/// `FileStamp.racyWindow` (50 ms) before it was recorded is never trusted (git's racy-clean
/// rule: a second change within the clock's tick could keep it identical), nor is a file whose
/// checksum (`ContentHash`) does not match.
///
/// Each listing also says whether the folder holds an entry named `.gitignore` (a hidden name,
/// not among the entries): the same rule answers it, since creating, removing or renaming one
/// changes the folder's times too. So the ignore rules need not look for the `.gitignore` of an
/// unchanged folder that had none (`VaultWalker`'s `folderListed`); one that has one is still
/// looked at, since an edit in place changes no folder.
struct FolderListings {
    /// One folder's entries: names (not starting with a dot) in one buffer, sorted by bytes,
    /// each with its `d_type`, and whether the folder holds an entry named `.gitignore`.
    struct Listing {
        var stamp: Stamp
        var names: [UInt8]
        var entries: [(start: Int32, length: Int32, type: UInt8)]
        var holdsGitignore = false
    }

    /// What is compared of a folder's `stat`; `trusted` is false when it was too recent.
    struct Stamp: Equatable {
        var modified: Int64
        var changed: Int64
        var inode: UInt64
        var trusted: Bool

        init(_ status: stat, now: Int64) {
            let stamp = FileStamp(status)
            self.init(modified: stamp.modifiedNanoseconds, changed: stamp.changedNanoseconds, inode: stamp.inode,
                      trusted: !stamp.isRacy(now: now))
        }

        init(modified: Int64, changed: Int64, inode: UInt64, trusted: Bool) {
            self.modified = modified
            self.changed = changed
            self.inode = inode
            self.trusted = trusted
        }
    }

    /// By the folder's real path, by its bytes (two folders whose names differ only in Unicode
    /// form are two folders).
    private(set) var listings: [ExactPath: Listing] = [:]

    static let magic: UInt64 = 0x5155_4952_4546_4C32  // "QUIREFL2"

    /// The recorded listing of `folder` when its current stamp is the recorded one and trusted.
    func listing(_ folder: String, stamp: Stamp) -> Listing? {
        guard let listing = listings[ExactPath(folder)], listing.stamp.trusted, stamp.trusted,
              listing.stamp == stamp else { return nil }
        return listing
    }

    mutating func record(_ folder: String, _ listing: Listing) {
        listings[ExactPath(folder)] = listing
    }

    var count: Int { listings.count }

    /// How many entries (and how many bytes of names) the listings hold in all: what a walk
    /// reserves room for.
    var totals: (entries: Int, nameBytes: Int) {
        listings.values.reduce((0, 0)) { ($0.0 + $1.entries.count, $0.1 + $1.names.count) }
    }

    /// An empty set with room for `capacity` folders.
    init(capacity: Int = 0) {
        listings.reserveCapacity(capacity)
    }

    // MARK: - The file: magic, payload length, checksum, then the number of folders and per
    // folder its path, stamp, whether it holds a `.gitignore`, and its entries.

    /// The listings recorded at `path`; empty when the file is missing, damaged or foreign.
    static func load(_ path: String) -> FolderListings {
        guard let file = MappedFile(path: path), file.bytes.count >= 24 else { return FolderListings() }
        return withExtendedLifetime(file) { () -> FolderListings in
            let raw = file.bytes
            var reader = Reader(raw: raw, offset: 0)
            guard reader.word() == magic, let length = reader.word(), let checksum = reader.word(),
                  length == UInt64(raw.count - 24),
                  checksum == ContentHash.hash(UnsafeRawBufferPointer(rebasing: raw[24...])) else { return FolderListings() }
            guard let folders = reader.word(), folders <= UInt64(raw.count) else { return FolderListings() }
            var result = FolderListings(capacity: Int(folders))
            while reader.offset < raw.count {
                guard let folder = reader.string(), let modified = reader.word(), let changed = reader.word(),
                      let inode = reader.word(), let flags = reader.word(), flags <= 1,
                      let names = reader.bytes(), let count = reader.word(),
                      count <= UInt64(names.count) else { return FolderListings() }
                var entries: [(start: Int32, length: Int32, type: UInt8)] = []
                entries.reserveCapacity(Int(count))
                for _ in 0..<Int(count) {
                    guard let packed = reader.word() else { return FolderListings() }
                    let start = Int32(truncatingIfNeeded: packed & 0xFFFF_FFFF)
                    let length = Int32(truncatingIfNeeded: (packed >> 32) & 0xFF_FFFF)
                    guard start >= 0, length > 0, Int(start) + Int(length) <= names.count else { return FolderListings() }
                    entries.append((start, length, UInt8(truncatingIfNeeded: packed >> 56)))
                }
                let stamp = Stamp(modified: Int64(bitPattern: modified), changed: Int64(bitPattern: changed),
                                  inode: inode, trusted: true)
                result.listings[ExactPath(folder)] = Listing(stamp: stamp, names: names, entries: entries, holdsGitignore: flags == 1)
            }
            guard result.listings.count == Int(folders) else { return FolderListings() }
            return result
        }
    }

    /// Writes the trusted listings to `path` (atomically; a failure only costs the next walk
    /// its speed). The file is laid out in one buffer of its exact size, each word stored in
    /// place (at 100,000 notes a 3.8 MB file, rewritten whenever a folder changed).
    func save(_ path: String) {
        let trusted = listings.filter { $0.value.stamp.trusted }
        var size = 24 + 8
        for (folder, listing) in trusted {
            size += 8 + folder.string.utf8.count + 5 * 8 + listing.names.count + 8 + 8 * listing.entries.count
        }
        var file = Data(count: size)
        file.withUnsafeMutableBytes { raw in
            var writer = Writer(raw: raw, offset: 24)
            writer.word(UInt64(trusted.count))
            for (folder, listing) in trusted {
                Array(folder.string.utf8).withUnsafeBytes { writer.bytes($0) }
                writer.word(UInt64(bitPattern: listing.stamp.modified))
                writer.word(UInt64(bitPattern: listing.stamp.changed))
                writer.word(listing.stamp.inode)
                writer.word(listing.holdsGitignore ? 1 : 0)
                listing.names.withUnsafeBytes { writer.bytes($0) }
                writer.word(UInt64(listing.entries.count))
                for entry in listing.entries {
                    writer.word(UInt64(UInt32(entry.start)) | UInt64(UInt32(entry.length) & 0xFF_FFFF) << 32 | UInt64(entry.type) << 56)
                }
            }
            writer.offset = 0
            writer.word(Self.magic)
            writer.word(UInt64(raw.count - 24))
            writer.word(ContentHash.hash(UnsafeRawBufferPointer(rebasing: raw[24...])))
        }
        try? AtomicFile.write(file, to: URL(fileURLWithPath: path), displayPath: ".quire/cache/folder-listings", durable: false)
    }

    /// Stores the file's words and length-prefixed byte strings into a buffer of their exact size.
    private struct Writer {
        let raw: UnsafeMutableRawBufferPointer
        var offset: Int

        mutating func word(_ value: UInt64) {
            raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }

        mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
            word(UInt64(bytes.count))
            UnsafeMutableRawBufferPointer(rebasing: raw[offset...]).copyMemory(from: bytes)
            offset += bytes.count
        }
    }

    /// Reads the file's words and length-prefixed byte strings, nil past its end.
    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset: Int

        mutating func word() -> UInt64? {
            guard offset + 8 <= raw.count else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func bytes() -> [UInt8]? {
            guard let count = word(), count <= UInt64(raw.count - offset) else { return nil }
            defer { offset += Int(count) }
            return Array(raw[offset..<offset + Int(count)])
        }

        mutating func string() -> String? {
            bytes().map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
