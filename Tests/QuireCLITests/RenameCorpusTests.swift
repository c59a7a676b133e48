import Foundation
import QuireCore
import Testing

/// `quire rename` on a real vault (Dendron's documentation, vendored in Tests/Corpora): every
/// link that led to the note leads to it after, every other link leads where it led, and no byte
/// changes but the rewritten link targets and the renamed note's title and stamp.
@Suite struct RenameCorpusTests {
    @Test func renamingAMuchLinkedNoteOfARealVault() throws {
        let corpus = Harness.packageRoot.appendingPathComponent("Tests/Corpora/dendron-site/vault")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            Issue.record("Tests/Corpora/dendron-site is missing")
            return
        }
        let vault = try TestVault()
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() where name.hasSuffix(".md") {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(name), to: vault.url(name))
        }
        let before = try TestVault.snapshot(vault.root)
        let censusBefore = try LinkCensus(vault.root)
        let linking = censusBefore.links.filter { $0.resolution == .note("changelog.md") }
        try #require(linking.count >= 50, "only \(linking.count) links lead to changelog.md")

        let run = try vault.run(["rename", "changelog.md", "Version history"], environment: ["QUIRE_NOW": "2026-12-01T10:00:00Z"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "version-history.md\n")
        let after = try TestVault.snapshot(vault.root)
        let censusAfter = try LinkCensus(vault.root)

        // Where each link leads, by file and position in it (positions shift only on lines whose
        // links changed, so links are compared by file and order).
        func destinations(_ census: LinkCensus, renamed: Bool) -> [String: [String]] {
            var result: [String: [String]] = [:]
            for entry in census.links {
                let path = renamed ? entry.path : (entry.path == "changelog.md" ? "version-history.md" : entry.path)
                var leads = entry.resolution.status + ":" + (entry.resolution.path ?? "")
                if !renamed, entry.resolution == .note("changelog.md") { leads = "note:version-history.md" }
                result[path, default: []].append(leads)
            }
            return result
        }
        let now = destinations(censusAfter, renamed: true)
        let then = destinations(censusBefore, renamed: false)
        let differing = Set(now.keys).union(then.keys).filter { now[$0] != then[$0] }.sorted()
        #expect(differing.isEmpty, "links lead elsewhere in \(differing.prefix(5))")
        #expect(censusAfter.links.filter { $0.resolution == .note("version-history.md") }.count == linking.count)

        // Bytes: a changed file differs only on lines holding rewritten links, and in its stamp.
        let edited = Set(linking.map(\.path))
        for (path, data) in before where !path.hasPrefix(".quire/") {
            let newPath = path == "changelog.md" ? "version-history.md" : path
            guard let now = after[newPath] else {
                Issue.record("\(path) is gone")
                continue
            }
            guard edited.contains(path) || path == "changelog.md" else {
                #expect(now == data, "\(path) changed")
                continue
            }
            let old = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            let new = String(decoding: now, as: UTF8.self).components(separatedBy: "\n")
            #expect(old.count == new.count, "\(path)")
            for (oldLine, newLine) in zip(old, new) where oldLine != newLine {
                let restored = newLine.replacingOccurrences(of: "version-history", with: "changelog")
                // The old target may have been spelt with capitals (`[[Changelog|…]]`).
                let allowed = restored == oldLine.replacingOccurrences(of: "[[Changelog", with: "[[changelog") || newLine.hasPrefix("updated: ") || newLine.hasPrefix("title: ")
                #expect(allowed, "\(path): \(oldLine) → \(newLine)")
            }
        }
        #expect(after.count == before.count)
    }
}
