import Foundation
import QuireGit
import Testing

/// `isProvablyUnchanged()`: true only when nothing changed; every kind of change makes it
/// false (the sync then runs the full status). Files get an old, explicit modification time
/// before they are committed, so that no entry is racily clean unless a test makes it so.
@Suite struct UnchangedTests {
    static let past = Date(timeIntervalSince1970: 1_600_000_000)

    /// A committed vault: two notes, one in a folder, an ignored local folder.
    private func committedVault(_ temp: TemporaryDirectory) throws -> Repository {
        let repo = try Repository.create(at: temp.url)
        try Fixture.write(".quire/local/\n*.tmp\n", to: ".gitignore", in: temp.url)
        try Fixture.write("alpha\n", to: "alpha.md", in: temp.url)
        try Fixture.write("beta\n", to: "Folder/beta.md", in: temp.url)
        for path in [".gitignore", "alpha.md", "Folder/beta.md"] { try age(path, temp) }
        try Fixture.commitAll(repo, "base", at: 0)
        return repo
    }

    private func age(_ path: String, _ temp: TemporaryDirectory, to date: Date = past) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: temp.path(path).path)
    }

    @Test func cleanAfterCommit() throws {
        let temp = try TemporaryDirectory()
        let repo = try committedVault(temp)
        #expect(try repo.status().isEmpty)
        #expect(try repo.isProvablyUnchanged())
        // Ignored files and empty or ignored-only untracked folders are no change, as in status.
        try Fixture.write("lock\n", to: ".quire/local/lock", in: temp.url)
        try Fixture.write("scratch\n", to: "Folder/x.tmp", in: temp.url)
        try FileManager.default.createDirectory(at: temp.path("Empty/Deeper"), withIntermediateDirectories: true)
        try Fixture.write("scratch\n", to: "Scratch/only.tmp", in: temp.url)
        #expect(try repo.status().isEmpty)
        #expect(try repo.isProvablyUnchanged())
    }

    @Test func editKeepingSizeAndModificationTimeIsCaught() throws {
        let temp = try TemporaryDirectory()
        let repo = try committedVault(temp)
        try Fixture.write("ALPHA\n", to: "alpha.md", in: temp.url)
        try age("alpha.md", temp)
        #expect(try repo.status().map(\.path) == ["alpha.md"])
        #expect(try !repo.isProvablyUnchanged())
    }

    @Test func newFileDeletionModeAndTypeChangesAreCaught() throws {
        for change in ["untracked file", "untracked nested file", "deletion", "mode", "file became folder", "staged"] {
            let temp = try TemporaryDirectory()
            let repo = try committedVault(temp)
            #expect(try repo.isProvablyUnchanged())
            switch change {
            case "untracked file", "untracked nested file", "deletion", "mode":
                try Self.make(change, in: temp)
            case "file became folder":
                try FileManager.default.removeItem(at: temp.path("alpha.md"))
                try Fixture.write("inside\n", to: "alpha.md/inside.tmp", in: temp.url)
            default:
                // The index no longer matches HEAD, though the work tree matches the index.
                try Fixture.write("staged\n", to: "alpha.md", in: temp.url)
                try age("alpha.md", temp)
                let index = try repo.index()
                try index.add(path: "alpha.md")
                try index.write()
            }
            #expect(try !repo.status().isEmpty, "\(change)")
            #expect(try !repo.isProvablyUnchanged(), "\(change)")
        }
    }

    /// A tracked file whose name is not UTF-8 cannot be named to the status exactly: once it is
    /// deleted the scan leaves the answer to the full status (it named a repaired path, which
    /// the status found unchanged, so the sync did not commit the deletion).
    @Test func aDeletedNameThatIsNotUTF8GoesToTheFullStatus() throws {
        let temp = try TemporaryDirectory()
        let repo = try committedVault(temp)
        let name: [UInt8] = [0x6E, 0xFF, 0x2E, 0x6D, 0x64]  // "n\xFF.md"
        let raw = Array(temp.url.path.utf8) + [0x2F] + name + [0]
        let descriptor = raw.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        try Fixture.commitAll(repo, "odd name", at: 10)
        raw.withUnsafeBufferPointer { bytes in bytes.withMemoryRebound(to: CChar.self) { _ = unlink($0.baseAddress!) } }
        #expect(try repo.status().count == 1)
        #expect(try repo.changeCandidates() == nil)
    }

    @Test func racilyCleanEntryIsNotTrusted() throws {
        let temp = try TemporaryDirectory()
        let repo = try committedVault(temp)
        // Modified after the index was written: its content could change without its stat data.
        try Fixture.write("gamma\n", to: "gamma.md", in: temp.url)
        try age("gamma.md", temp, to: Date(timeIntervalSinceNow: 3_600))
        try Fixture.commitAll(repo, "gamma", at: 10)
        #expect(try repo.status().isEmpty)
        #expect(try !repo.isProvablyUnchanged())
    }

    /// Makes one of the changes both the proof and the candidates must see.
    private static func make(_ change: String, in temp: TemporaryDirectory) throws {
        switch change {
        case "untracked file": try Fixture.write("new\n", to: "Folder/new.md", in: temp.url)
        case "untracked nested file": try Fixture.write("new\n", to: "New/Deeper/new.md", in: temp.url)
        case "deletion": try FileManager.default.removeItem(at: temp.path("Folder/beta.md"))
        default: try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temp.path("alpha.md").path)
        }
    }

    /// `changeCandidates()` names every path the full status lists, so that the status of just
    /// those paths is the full status; what it cannot narrow down (a staged change) is nil.
    @Test func candidatesNameEveryChange() throws {
        let changes = ["none", "edit keeping size and time", "untracked file", "untracked nested file", "deletion",
                       "mode", "file became folder", "ignored only"]
        for change in changes {
            let temp = try TemporaryDirectory()
            let repo = try committedVault(temp)
            switch change {
            case "edit keeping size and time":
                try Fixture.write("ALPHA\n", to: "alpha.md", in: temp.url)
                try age("alpha.md", temp)
            case "untracked file", "untracked nested file", "deletion", "mode":
                try Self.make(change, in: temp)
            case "file became folder":
                try FileManager.default.removeItem(at: temp.path("alpha.md"))
                try Fixture.write("inside\n", to: "alpha.md/inside.md", in: temp.url)
            case "ignored only": try Fixture.write("scratch\n", to: "Scratch/only.tmp", in: temp.url)
            default: break
            }
            let candidates = try #require(try repo.changeCandidates(), "\(change)")
            #expect(try repo.status(paths: candidates) == repo.status(), "\(change): \(candidates)")
            #expect(candidates.isEmpty == ["none", "ignored only"].contains(change), "\(change): \(candidates)")
        }
        let temp = try TemporaryDirectory()
        let repo = try committedVault(temp)
        try Fixture.write("staged\n", to: "alpha.md", in: temp.url)
        let index = try repo.index()
        try index.add(path: "alpha.md")
        try index.write()
        #expect(try repo.changeCandidates() == nil)
    }

    /// A racily clean entry (modified at or after the index was written) is always a candidate:
    /// an edit that keeps its size and modification time is found by comparing content, as git does.
    @Test func racyEditKeepingSizeAndTimeIsFound() throws {
        let temp = try TemporaryDirectory()
        let repo = try committedVault(temp)
        let future = Date(timeIntervalSinceNow: 3_600)
        try Fixture.write("gamma\n", to: "gamma.md", in: temp.url)
        try age("gamma.md", temp, to: future)
        try Fixture.commitAll(repo, "gamma", at: 10)
        #expect(try repo.changeCandidates() == ["gamma.md"])
        #expect(try repo.status(paths: ["gamma.md"]).isEmpty)
        // Same size, same modification time, other bytes.
        try Fixture.write("GAMMA\n", to: "gamma.md", in: temp.url)
        try age("gamma.md", temp, to: future)
        let candidates = try #require(try repo.changeCandidates())
        #expect(try repo.status(paths: candidates).map(\.path) == ["gamma.md"])
    }
}
