import Foundation
import Testing

/// Syncs that commit and merge many notes at once (their new objects go into one pack).
@Suite struct SyncBulkTests {
    static let count = 150

    static func base(_ index: Int) -> String {
        note("id\(index)", title: "N\(index)", updated: "2026-11-29T10:00:00Z", body: "Line one.\n\nLine two.\n")
    }

    /// Every note edited on both devices (front matter on one, body on the other): one sync on
    /// each side commits them all, merges them note by note, and both devices converge.
    @Test func manyNotesEditedOnBothSidesCommitMergeAndConverge() throws {
        var notes: [String: String] = [:]
        for index in 0..<Self.count { notes["Notes/n\(index).md"] = Self.base(index) }
        let world = try SyncWorld()
        let a = try world.first("a", notes: notes)
        let b = try world.clone("b")
        for index in 0..<Self.count {
            try a.write(Self.base(index).replacingOccurrences(of: "title: N\(index)\n", with: "title: N\(index)\nseenOnA: true\n")
                .replacingOccurrences(of: "10:00", with: "11:00"), to: "Notes/n\(index).md")
            try b.write(Self.base(index).replacingOccurrences(of: "Line two.\n", with: "Line two.\nFrom B.\n")
                .replacingOccurrences(of: "10:00", with: "11:30"), to: "Notes/n\(index).md")
        }
        let first = try a.sync(["--json"], now: "2026-11-29T12:00:00Z")
        #expect(first.stdout.contains("\"pushed\":true") || first.stdout.contains("\"pushed\": true"))
        try b.sync(now: "2026-11-29T12:01:00Z")
        try a.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.headTree() == b.headTree())
        for index in [0, 77, Self.count - 1] {
            let merged = try a.read("Notes/n\(index).md")
            #expect(merged.contains("seenOnA: true\n") && merged.contains("From B.\n")
                && merged.contains("updatedAt: 2026-11-29T11:30:00Z\n"), "\(merged)")
        }
        for device in [a, b] {
            #expect(try device.git(["status", "--porcelain"]).stdout.isEmpty)
            let fsck = try device.git(["fsck", "--strict", "--no-dangling"])
            #expect(fsck.code == 0 && fsck.stdout.isEmpty, "\(fsck.stdout)\(fsck.stderr)")
            // The versions the syncs replaced were freed before they ended (RetiredFiles).
            let retired = device.root.appendingPathComponent(".git/quire-retired").path
            #expect(FileManager.default.fileExists(atPath: retired))
            #expect(try FileManager.default.contentsOfDirectory(atPath: retired).isEmpty)
        }
        let remote = try world.git(["fsck", "--strict", "--no-dangling"])
        #expect(remote.code == 0, "\(remote.stderr)")
        // The merged and committed blobs went into packs, not thousands of loose files.
        let loose = try b.git(["count-objects"]).stdout
        #expect(loose.hasPrefix("0 objects") || (Int(loose.split(separator: " ").first ?? "") ?? Int.max) < Self.count, "\(loose)")
    }
}
