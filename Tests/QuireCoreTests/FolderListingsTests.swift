import Foundation
import Testing
@testable import QuireCore

/// The walk's folder cache (`FolderListings`, `.quire/cache/folder-listings`): an unchanged
/// folder is not read again, and every change of a folder's entries — a note created, removed,
/// renamed, a folder made or removed, a symlink — is seen by the next walk. Each walk is compared
/// with one that reads every folder (the cache removed).
@Suite struct FolderListingsTests {
    /// A vault with notes in nested folders, a hidden folder, an attachment and symlinks.
    static func vault() throws -> (TemporaryDirectory, Vault) {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire/cache")
        for path in ["v/b.md", "v/A/a.md", "v/A/B/deep.md", "v/A/image.png", "v/C/c.md", "v/.hidden/h.md", "outside/o.md"] {
            try temp.write(path, path)
        }
        try temp.symlink("v/out", to: temp.url.path + "/outside")
        try temp.symlink("v/A/loop", to: temp.url.path + "/v")
        try temp.symlink("v/link.md", to: "b.md")
        return (temp, try Vault(at: temp.url.appendingPathComponent("v")))
    }

    /// A walker whose clock is past the racily-clean window (what the test wrote is trusted, no
    /// wait), or the real clock `atOnce` (what was just changed is too fresh to trust).
    static func walker(_ vault: Vault, ignore: ((String, Bool) -> Bool)? = nil, atOnce: Bool = false) -> VaultWalker {
        var walker = VaultWalker(realRoot: vault.root.path, ignore: ignore)
        if !atOnce { walker.clock = TestSupport.settledClock }
        return walker
    }

    /// After a walk that trusted what it recorded: the next change gets a later change time.
    static func tick(_ vault: Vault) {
        TestSupport.waitForFileClockTick(probe: vault.root.deletingLastPathComponent().path + "/clock-probe")
    }

    /// The walk as a comparable value (stamps dropped: `FileStamp?` lists compare fine, but the
    /// attachments and skips matter more).
    static func walk(_ vault: Vault, atOnce: Bool = false) throws -> VaultListing {
        defer { if !atOnce { tick(vault) } }
        return try walker(vault, ignore: { path, isFolder in isFolder && path == "C" }, atOnce: atOnce)
            .walk(stamps: true, attachments: true)
    }

    /// The same walk with every folder read from the disk.
    static func truth(_ vault: Vault) throws -> VaultListing {
        let cache = vault.root.appendingPathComponent(".quire/cache/folder-listings")
        let saved = try? Data(contentsOf: cache)
        try? FileManager.default.removeItem(at: cache)
        defer { if let saved { try? saved.write(to: cache) } else { try? FileManager.default.removeItem(at: cache) } }
        return try walk(vault)
    }

    static func same(_ a: VaultListing, _ b: VaultListing) -> Bool {
        a.notes == b.notes && a.stamps == b.stamps && a.folders == b.folders && a.skipped == b.skipped
            && a.attachments == b.attachments
    }

    @Test func anUnchangedVaultReadsNoFolder() throws {
        let (temp, vault) = try Self.vault()
        defer { withExtendedLifetime(temp) {} }
        let first = try Self.walk(vault)
        #expect(first.notes == ["A/B/deep.md", "A/a.md", "b.md", "link.md"])
        #expect(first.foldersRead >= 3)
        let second = try Self.walk(vault)
        #expect(second.foldersRead == 0, "every folder came from the cache")
        #expect(Self.same(first, second))
        #expect(Self.same(second, try Self.truth(vault)))
    }

    @Test func everyChangeOfAFolderIsSeen() throws {
        let (temp, vault) = try Self.vault()
        _ = try Self.walk(vault)
        let changes: [(String, () throws -> Void)] = [
            ("a note created", { try temp.write("v/A/B/new.md", "n") }),
            ("a note removed", { try FileManager.default.removeItem(atPath: temp.url.path + "/v/A/a.md") }),
            ("a note renamed", { try FileManager.default.moveItem(atPath: temp.url.path + "/v/b.md",
                                                                  toPath: temp.url.path + "/v/b2.md") }),
            ("a folder made", { try temp.write("v/D/d.md", "d") }),
            ("a folder renamed", { try FileManager.default.moveItem(atPath: temp.url.path + "/v/A/B",
                                                                    toPath: temp.url.path + "/v/A/E") }),
            ("a symlink made", { try temp.symlink("v/A/E/back.md", to: "../../b2.md") }),
            ("a file replaced by a folder of its name", {
                try FileManager.default.removeItem(atPath: temp.url.path + "/v/b2.md")
                try temp.write("v/b2.md/inner.md", "i")
            }),
        ]
        for (change, apply) in changes {
            try apply()
            // At once (the folder's new stamp is too young to trust) and once it has aged.
            let now = try Self.walk(vault, atOnce: true)
            #expect(Self.same(now, try Self.truth(vault)), "\(change), at once: \(now.notes)")
            let later = try Self.walk(vault)
            #expect(Self.same(later, try Self.truth(vault)), "\(change): \(later.notes)")
            #expect(try Self.walk(vault).foldersRead == 0, "\(change): remembered afterwards")
        }
        let final = try Self.walk(vault)
        // back.md leads to the folder b2.md, which the walk enters once: first through the link.
        #expect(final.notes == ["A/E/back.md/inner.md", "A/E/deep.md", "A/E/new.md", "D/d.md"], "\(final.notes)")
    }

    @Test func aDamagedOrForeignCacheIsReadAgain() throws {
        let (temp, vault) = try Self.vault()
        defer { withExtendedLifetime(temp) {} }
        let expected = try Self.walk(vault)
        let cache = vault.root.appendingPathComponent(".quire/cache/folder-listings")
        let bytes = try Data(contentsOf: cache)
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x40
        for damaged in [Data(), bytes.prefix(bytes.count / 2), flipped, Data(repeating: 0, count: 64)] {
            try damaged.write(to: cache)
            let walked = try Self.walk(vault)
            #expect(walked.foldersRead >= 3, "a damaged cache answers nothing")
            #expect(Self.same(walked, expected))
        }
    }
    /// Which folders hold a `.gitignore`, as the walk tells its `folderListed` (the root is `""`).
    static func gitignores(_ vault: Vault, atOnce: Bool = false) throws -> [String: Bool] {
        var told: [String: Bool] = [:]
        var walker = walker(vault, atOnce: atOnce)
        walker.folderListed = { told[$0] = $1 }
        _ = try walker.walk()
        if !atOnce { tick(vault) }
        return told
    }

    /// What the folders hold, looked at directly.
    static func gitignoresOnDisk(_ vault: Vault, _ told: [String: Bool]) -> [String: Bool] {
        var truth: [String: Bool] = [:]
        for folder in told.keys {
            let path = vault.root.path + (folder.isEmpty ? "" : "/" + folder) + "/.gitignore"
            truth[folder] = FileManager.default.fileExists(atPath: path)
        }
        return truth
    }

    @Test func aFolderKeptFromTheCacheStillSaysWhetherItHoldsAGitignore() throws {
        let (temp, vault) = try Self.vault()
        try temp.write("v/A/.gitignore", "secret.md\n")
        let first = try Self.gitignores(vault)
        #expect(first == ["": false, "A": true, "A/B": false, "C": false], "out leads outside the vault: not entered")
        #expect(first == Self.gitignoresOnDisk(vault, first))
        #expect(try Self.walk(vault).foldersRead == 0)
        #expect(try Self.gitignores(vault) == first, "from the cache")
        let changes: [(String, () throws -> Void)] = [
            ("one created", { try temp.write("v/A/B/.gitignore", "x\n") }),
            ("one edited in place", { try Data("y\n".utf8).write(to: temp.url.appendingPathComponent("v/A/B/.gitignore")) }),
            ("one removed", { try FileManager.default.removeItem(atPath: temp.url.path + "/v/A/.gitignore") }),
            ("one renamed away", { try FileManager.default.moveItem(atPath: temp.url.path + "/v/A/B/.gitignore",
                                                                    toPath: temp.url.path + "/v/A/B/gitignore.old") }),
            ("a folder replaced by one that holds one", {
                try FileManager.default.moveItem(atPath: temp.url.path + "/v/A/B", toPath: temp.url.path + "/v/A/B-old")
                try temp.write("v/A/B/.gitignore", "z\n")
            }),
        ]
        for (change, apply) in changes {
            try apply()
            let now = try Self.gitignores(vault, atOnce: true)
            #expect(now == Self.gitignoresOnDisk(vault, now), "\(change), at once: \(now)")
            let later = try Self.gitignores(vault)
            #expect(later == Self.gitignoresOnDisk(vault, later), "\(change): \(later)")
            #expect(try Self.walk(vault).foldersRead == 0, "\(change): remembered afterwards")
            #expect(try Self.gitignores(vault) == later, "\(change): the same from the cache")
        }
        #expect(try Self.gitignores(vault)["A/B"] == true)
    }
    /// Each note's stamp is the one its own `lstat` gives, whether the walk kept its folder's
    /// descriptor open from the folder's `fstat` or opened the folder again (past the limit),
    /// with the folders read or kept from the cache.
    @Test func noteStampsAreTheirOwnWithOrWithoutKeptDescriptors() throws {
        let (temp, vault) = try Self.vault()
        defer { withExtendedLifetime(temp) {} }
        for path in ["v/A/B/more.md", "v/D/d1.md", "v/D/E/d2.md", "v/D/E/F/d3.md"] { try temp.write(path, path) }
        for limit in [0, 1, 2, 1_000, nil] {
            var walker = Self.walker(vault)
            walker.descriptorLimit = limit
            let walked = try walker.walk(stamps: true)
            #expect(walked.notes.count == 9 && walked.stamps.count == 9, "\(walked.notes)")
            for (path, stamp) in zip(walked.notes, walked.stamps) where path != "link.md" {
                var status = stat()
                #expect(lstat(vault.root.path + "/" + path, &status) == 0)
                #expect(stamp == FileStamp(status), "\(path) with a limit of \(limit.map(String.init) ?? "the process's")")
            }
            #expect(walked.stamps[walked.notes.firstIndex(of: "link.md") ?? 0] == nil, "a note through a symlink: looked at by the caller")
        }
    }
    /// More notes than one chunk of the stamps taken over the cores (512): each note gets its
    /// own stamp, in the notes' order, with the folders' descriptors kept or opened again, and
    /// with the stamps of the notes listed first taken while the walk goes on.
    @Test func chunksStampedOverTheCoresGiveEachNoteItsOwnStamp() throws {
        let (temp, vault) = try Self.vault()
        defer { withExtendedLifetime(temp) {} }
        for index in 0..<1_061 {
            try temp.write("v/F\(index % 7)/n\(index).md", "\(index)")
        }
        try temp.write("v/F3/wide/deeper/last.md", "last")
        // Batches handed to another thread while the walk goes on (`StampsAhead`): of one
        // note, a few, more than a folder holds, none (more than the vault holds).
        for (limit, batch) in [(0, 1), (3, 7), (nil, 200), (0, 1_000), (3, 5_000), (nil, StampsAhead.batch)] {
            var walker = Self.walker(vault)
            walker.descriptorLimit = limit
            walker.stampsAheadBatch = batch
            let walked = try walker.walk(stamps: true)
            #expect(walked.notes.count == 1_061 + 6 && walked.stamps.count == walked.notes.count)
            var differing: [String] = []
            for (path, stamp) in zip(walked.notes, walked.stamps) where path != "link.md" {
                var status = stat()
                if lstat(vault.root.path + "/" + path, &status) != 0 || stamp != FileStamp(status) { differing.append(path) }
            }
            #expect(differing.isEmpty, "limit \(limit.map(String.init) ?? "the process's"), batch \(batch): \(differing.prefix(5))")
            #expect(walked.stamps[walked.notes.firstIndex(of: "link.md") ?? 0] == nil, "batch \(batch)")
        }
    }
}
