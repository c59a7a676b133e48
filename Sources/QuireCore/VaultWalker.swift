import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lists the notes (`*.md`) and folders of a vault: hidden entries (`.git`, `.quire`, any
/// name starting with `.`) are skipped; symlinks are followed only when they lead inside the
/// vault and outside its hidden folders (`Vault.mayFollowLink`), and each real folder is visited once, so symlink loops end. A subfolder that cannot
/// be listed (no permission) is listed among the folders but its content is skipped.
struct VaultWalker {
    /// The vault root with symlinks resolved.
    let realRoot: String
    /// Called with a vault-relative path and whether it is a folder; true skips it.
    let ignore: ((String, Bool) -> Bool)?
    /// Called once a folder's entries are known (read, or unchanged since the last walk), before
    /// `ignore` is asked about any of them: its vault-relative path (`""` for the root) and
    /// whether it holds an entry named `.gitignore` — so the ignore rules need not look.
    var folderListed: ((String, Bool) -> Void)?
    /// How many folder descriptors the walk may keep open (nil: a share of the process's limit).
    var descriptorLimit: Int?
    /// The clock the racily-clean rule of the folder listings reads (`FileStamp.now`; a test
    /// passes one ahead of it instead of waiting out `FileStamp.racyWindow`).
    var clock: () -> Int64 = FileStamp.now
    /// The fewest notes whose stamps are handed to another thread while the walk goes on
    /// (`StampsAhead`; a test sets a few).
    var stampsAheadBatch = StampsAhead.batch
    /// Whether the folder listings are saved behind the caller's answer, and where (`WritesBehind`).
    var savesBehind = false
    var writes = WritesBehind.shared

    init(realRoot: String, ignore: ((String, Bool) -> Bool)?, folderListed: ((String, Bool) -> Void)? = nil) {
        self.realRoot = realRoot
        self.ignore = ignore
        self.folderListed = folderListed
    }

    /// Walks the vault depth first over names sorted by bytes, so notes come out in
    /// `PathOrder` without a global sort. Folders are read with `readdir`, whose entry types
    /// are trusted: a regular file costs no `stat` unless `stamps` is asked for, and then one
    /// `fstatat` relative to its folder, spread over the processor's cores. A folder unchanged
    /// since the last walk is not read again: its sorted entries come from
    /// `.quire/cache/folder-listings` (`FolderListings`).
    /// With `attachments`, the regular files that are not notes are listed too (not ignored,
    /// outside hidden folders), for link resolution.
    func walk(stamps wantStamps: Bool = false, attachments wantAttachments: Bool = false) throws -> VaultListing {
        var listing = VaultListing()
        var directories: [String] = []
        // Each folder's descriptor, kept open from its `fstat` to the notes' `fstatat` (one
        // lookup of its path instead of two), while at most `keptLimit` are open; -1: not kept.
        var descriptors: [Int32] = []
        var kept = 0
        let keptLimit = wantStamps ? descriptorLimit ?? Self.keptDescriptorLimit() : 0
        defer { for descriptor in descriptors where descriptor >= 0 { close(descriptor) } }
        // The stamps of the notes listed so far, taken on another thread while the walk goes on
        // (done before the descriptors they use are closed).
        let ahead = wantStamps ? StampsAhead(batch: stampsAheadBatch) : nil
        defer { ahead?.wait() }
        var noteDirectory: [Int32] = []
        // Each note's name, NUL-terminated, one after another: what `fstatat` is given.
        var noteNames: [UInt8] = []
        var nameStart: [Int32] = []
        var viaLink: [Bool] = []

        // The folders' sorted entries as the last walk recorded them (`FolderListings`): a
        // folder whose stamp is unchanged is not read again.
        let listingsPath = realRoot + "/.quire/cache/folder-listings"
        let previous = FolderListings.load(listingsPath)
        var current = FolderListings(capacity: previous.count)
        // Room for as many notes as the folders held last time: the lists grow in place.
        let (expected, nameBytes) = previous.totals
        listing.notes.reserveCapacity(expected)
        noteDirectory.reserveCapacity(expected)
        nameStart.reserveCapacity(expected)
        viaLink.reserveCapacity(expected)
        noteNames.reserveCapacity(nameBytes + expected)
        // By bytes: two folders whose names differ only in Unicode form are two folders (as
        // `String`s they are equal, and the second one's notes were never listed).
        var visited = Set<ExactPath>(minimumCapacity: previous.count + 1)
        visited.insert(ExactPath(realRoot))
        var readAgain = 0
        let now = clock()

        /// The sorted entries (not starting with a dot) of the folder at `real`, nil when it
        /// cannot be listed; and the folder's descriptor when it is kept open (else -1).
        func entries(of real: String) -> (FolderListings.Listing?, Int32) {
            var status = stat()
            // The stamp is taken before the folder is read: a change while it is read leaves a
            // newer stamp, and the next walk reads the folder again.
            var descriptor: Int32 = -1
            if kept < keptLimit {
                descriptor = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if descriptor >= 0, fstat(descriptor, &status) != 0 {
                    close(descriptor)
                    descriptor = -1
                }
            }
            let found = descriptor >= 0 || stat(real, &status) == 0
            let stamp = found ? FolderListings.Stamp(status, now: now) : nil
            if let stamp, let known = previous.listing(real, stamp: stamp) {
                current.record(real, known)
                if descriptor >= 0 { kept += 1 }
                return (known, descriptor)
            }
            guard let directory = opendir(real) else {
                if descriptor >= 0 { close(descriptor) }
                return (nil, -1)
            }
            if descriptor >= 0 { kept += 1 }
            // Names go into one buffer and are sorted as (start, length) pairs: no array per name.
            var listing = FolderListings.Listing(
                stamp: stamp ?? FolderListings.Stamp(modified: 0, changed: 0, inode: 0, trusted: false), names: [], entries: [])
            while let entry = readdir(directory) {
                let type = entry.pointee.d_type
                DirectoryEntryName.with(entry) { raw in
                    let length = raw.count
                    guard length > 0, !Vault.isHidden(name: raw.prefix(length)) else {
                        if length == Self.gitignoreName.count, raw.starts(with: Self.gitignoreName) {
                            listing.holdsGitignore = true
                        }
                        return
                    }
                    listing.entries.append((Int32(listing.names.count), Int32(length), type))
                    listing.names.append(contentsOf: raw[0..<length])
                }
            }
            closedir(directory)
            listing.names.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                listing.entries.sort { left, right in
                    let common = Int(min(left.length, right.length))
                    let order = memcmp(base + Int(left.start), base + Int(right.start), common)
                    return order != 0 ? order < 0 : left.length < right.length
                }
            }
            readAgain += 1
            current.record(real, listing)
            return (listing, descriptor)
        }

        func visit(_ real: String, _ folder: String, _ relative: [UInt8]) -> Bool {
            let (found, descriptor) = entries(of: real)
            guard let read = found else { return false }
            folderListed?(folder, read.holdsGitignore)
            let buffer = read.names
            let entries = read.entries
            let index = Int32(directories.count)
            directories.append(real)
            descriptors.append(descriptor)
            for (start, length, type) in entries {
                let name = buffer[Int(start)..<Int(start + length)]
                let isNote = Self.isNoteName(name)
                var kind = mode_t(0)
                switch Int32(type) {
                case Int32(DT_REG): kind = S_IFREG
                case Int32(DT_DIR): kind = S_IFDIR
                default: break
                }
                // A regular file that is not a note costs nothing more.
                if kind == S_IFREG && !isNote {
                    if wantAttachments {
                        guard FileNameText.isValid(name) else {
                            listing.skipped.append(VaultSkip(path: Self.shown(relative, name), reason: .invalidName))
                            continue
                        }
                        let path = Self.join(relative, name)
                        if ignore?(path, false) != true { listing.attachments.append(path) }
                    }
                    continue
                }
                // A name no path can hold (not UTF-8) is listed as skipped, never read as `…�…`.
                guard FileNameText.isValid(name) else {
                    listing.skipped.append(VaultSkip(path: Self.shown(relative, name), reason: .invalidName))
                    continue
                }
                let path = Self.join(relative, name)
                var target = kind == S_IFREG ? "" : real + "/" + String(decoding: name, as: UTF8.self)
                var linked = false
                if kind == 0 {
                    var status = stat()
                    guard lstat(target, &status) == 0 else { continue }
                    kind = status.st_mode & S_IFMT
                    if kind == S_IFLNK {
                        // Followed only when it leads inside the vault; its real path guards loops.
                        guard let resolved = Vault.realPath(target), stat(resolved, &status) == 0 else {
                            listing.skipped.append(VaultSkip(path: path, reason: .brokenSymlink))
                            continue
                        }
                        guard Vault.isInside(resolved, root: realRoot) else {
                            listing.skipped.append(VaultSkip(path: path, reason: .symlinkOutside))
                            continue
                        }
                        guard Vault.isFollowable(target: resolved, root: realRoot) else {
                            listing.skipped.append(VaultSkip(path: path, reason: .symlinkHidden))
                            continue
                        }
                        target = resolved
                        kind = status.st_mode & S_IFMT
                        linked = true
                    }
                }
                if kind == S_IFDIR {
                    if ignore?(path, true) == true || !visited.insert(ExactPath(target)).inserted { continue }
                    listing.folders.append(path)
                    if !visit(target, path, Array(path.utf8)) {
                        listing.skipped.append(VaultSkip(path: path, reason: .unreadableFolder))
                    }
                } else if isNote {
                    guard kind == S_IFREG else {
                        listing.skipped.append(VaultSkip(path: path, reason: .notAFile))
                        continue
                    }
                    guard ignore?(path, false) != true else { continue }
                    listing.notes.append(path)
                    noteDirectory.append(index)
                    nameStart.append(Int32(noteNames.count))
                    noteNames.append(contentsOf: name)
                    noteNames.append(0)
                    viaLink.append(linked)
                }
            }
            if let ahead, noteDirectory.count - ahead.handed >= ahead.batch {
                ahead.hand(directories, descriptors, noteDirectory, noteNames, nameStart, viaLink)
            }
            return true
        }

        guard visit(realRoot, "", []) else {
            throw CoreError.readFailed(path: ".", reason: "cannot list the folder")
        }
        if readAgain > 0 || current.count != previous.count {
            if savesBehind {
                let listings = current
                writes.start { listings.save(listingsPath) }
            } else {
                current.save(listingsPath)
            }
        }
        listing.foldersRead = readAgain
        listing.folders.sort()
        if let ahead {
            listing.stamps = ahead.finish(directories, descriptors, noteDirectory, noteNames, nameStart, viaLink)
        }
        return listing
    }

    /// The name of a folder's git ignore rules, whose presence each listing records.
    private static let gitignoreName: [UInt8] = Array(".gitignore".utf8)

    /// `relative/name` (or `name` at the root) as a string, built in place.
    /// A path whose name is not UTF-8, for a message (`FileNameText.shown`).
    private static func shown(_ relative: [UInt8], _ name: ArraySlice<UInt8>) -> String {
        FileNameText.shown(relative.isEmpty ? Array(name) : relative + [UInt8(ascii: "/")] + Array(name))
    }

    private static func join(_ relative: [UInt8], _ name: ArraySlice<UInt8>) -> String {
        let count = relative.isEmpty ? name.count : relative.count + 1 + name.count
        let joined = String(unsafeUninitializedCapacity: count) { output in
            var at = 0
            for byte in relative { output[at] = byte; at += 1 }
            if !relative.isEmpty { output[at] = UInt8(ascii: "/"); at += 1 }
            for byte in name { output[at] = byte; at += 1 }
            return at
        }
        return joined
    }

    /// Whether a file name is a note's: it ends in `.md`, in any case.
    static func isNoteName(_ name: ArraySlice<UInt8>) -> Bool {
        let end = name.endIndex
        guard name.count >= 3, name[end - 3] == UInt8(ascii: ".") else { return false }
        return name[end - 2] | 0x20 == UInt8(ascii: "m") && name[end - 1] | 0x20 == UInt8(ascii: "d")
    }

    /// How many folder descriptors a walk keeps open at most: a quarter of the process's limit
    /// (the rest is left to whatever else the process has open), 4,096 at most.
    private static func keptDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return Int(min(limit.rlim_cur / 4, 4_096))
    }

    /// Each note's stamp by `fstatat` relative to its folder (its name at `nameStart` in
    /// `names`, NUL-terminated; the folder's kept descriptor, or one opened here), in chunks
    /// over the cores (on this thread alone unless `spread`).
    static func stamps(_ directories: [String], _ descriptors: [Int32], _ noteDirectory: [Int32],
                       _ names: [UInt8], _ nameStart: [Int32], _ viaLink: [Bool], spread: Bool = true) -> [FileStamp?] {
        let count = noteDirectory.count
        var result = [FileStamp?](repeating: nil, count: count)
        let chunkSize = spread ? 512 : max(count, 1)
        let chunks = (count + chunkSize - 1) / chunkSize
        result.withUnsafeMutableBufferPointer { output in
            names.withUnsafeBufferPointer { nameBytes in
                noteDirectory.withUnsafeBufferPointer { folderOf in
                    nameStart.withUnsafeBufferPointer { starts in
                        viaLink.withUnsafeBufferPointer { linked in
                            guard let base = nameBytes.baseAddress else { return }
                            let slots = output
                            ParallelMap.perform(iterations: chunks) { chunk in
                                var openDirectory: Int32 = -1
                                var descriptor: Int32 = -1
                                var opened = false  // a descriptor this loop opened, and closes
                                defer { if opened { close(descriptor) } }
                                for index in (chunk * chunkSize)..<min(count, (chunk + 1) * chunkSize) where !linked[index] {
                                    if folderOf[index] != openDirectory {
                                        if opened { close(descriptor) }
                                        openDirectory = folderOf[index]
                                        descriptor = descriptors[Int(openDirectory)]
                                        opened = descriptor < 0
                                        if opened {
                                            descriptor = open(directories[Int(openDirectory)], O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                            opened = descriptor >= 0
                                        }
                                    }
                                    guard descriptor >= 0 else { continue }
                                    var status = stat()
                                    let name = UnsafeRawPointer(base + Int(starts[index])).assumingMemoryBound(to: CChar.self)
                                    if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0,
                                       status.st_mode & S_IFMT == S_IFREG {
                                        slots[index] = FileStamp(status)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
