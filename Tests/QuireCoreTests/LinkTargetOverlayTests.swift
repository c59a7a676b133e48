import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

/// A move resolves links afterwards through the table of before with the moved notes' entries
/// replaced (`LinkTargetOverlay`); every look-up must find what a table of every note's entry
/// afterwards finds: over random notes (paths, titles, aliases with case and NFC/NFD twins) of
/// which some move, are retitled or both.
@Suite struct LinkTargetOverlayTests {
    @Test func anOverlayAnswersAsATableOfEveryNoteAfterwards() {
        let parts = ["a", "B", "note", "Café", "Cafe\u{301}", "x y", "Ω", "dir"]
        var random = SeededGenerator(seed: 38)
        func name() -> String { (0..<Int.random(in: 1...2, using: &random)).map { _ in parts.randomElement(using: &random) ?? "" }.joined() }
        for round in 0..<200 {
            var before: [LinkTargetTable.Entry] = []
            var seen = Set<ExactPath>()
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let folder = Bool.random(using: &random) ? name() + "/" : ""
                let path = folder + name() + ".md"
                guard seen.insert(ExactPath(path)).inserted else { continue }
                let aliases = (0..<Int.random(in: 0...2, using: &random)).map { _ in name() }
                before.append(LinkTargetTable.Entry(path: path, title: name(), aliases: aliases))
            }
            var after = before
            var replaced = Set<ExactPath>()
            var changes: [LinkTargetTable.Entry] = []
            for index in after.indices where Int.random(in: 0..<3, using: &random) == 0 {
                let moved = "moved\(index)/" + (Bool.random(using: &random) ? name() + ".md" : (after[index].path as NSString).lastPathComponent)
                after[index].path = moved
                if Bool.random(using: &random) { after[index].title = name() }
                replaced.insert(ExactPath(before[index].path))
                changes.append(after[index])
            }
            let overlay = LinkTargetOverlay(base: LinkTargetTable(notes: before), replacing: replaced, with: LinkTargetTable(notes: changes))
            let whole = LinkTargetTable(notes: after)
            let keys = Set((before + after).flatMap { entry in
                [LinkResolver.key(entry.path), LinkTarget.nameKey(of: entry.path) ?? "", LinkResolver.key(entry.title)]
                    + entry.aliases.map(LinkResolver.key)
            })
            func bytes(_ paths: [String]) -> [[UInt8]] { paths.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } }
            for key in keys {
                #expect(bytes(overlay.files(atPathKey: key)) == bytes(whole.files(atPathKey: key)), "round \(round), path \(key)")
                #expect(bytes(overlay.files(withNameKey: key)) == bytes(whole.files(withNameKey: key)), "round \(round), name \(key)")
                #expect(bytes(overlay.notes(withTitleKey: key)) == bytes(whole.notes(withTitleKey: key)), "round \(round), title \(key)")
                #expect(bytes(overlay.notes(withAliasKey: key)) == bytes(whole.notes(withAliasKey: key)), "round \(round), alias \(key)")
            }
        }
    }
}
