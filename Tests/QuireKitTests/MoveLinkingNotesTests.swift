import Foundation
import QuireCore
@testable import QuireKit
import QuireSearch
import QuireSync
import QuireTestSupport
import Testing

/// A move or rename that reads only the notes the catalog's link terms name
/// (`MoveOptions.linkingNotes`) rewrites exactly what reading every note rewrites: over random
/// vaults (links by file name, path, title, alias, relative Markdown path, with headings and
/// labels, in any case; shared names, broken links, links in front matter) and random moves
/// and retitles (to a new title or another note's), the reports and the new bytes are the same.
@Suite struct MoveLinkingNotesTests {
    static let words = ["Alpha", "beta", "Gamma", "delta", "Café", "straße", "Omega"]
    static let folders = ["", "a/", "b/", "a/c/"]

    @Test func readingOnlyTheLinkingNotesRewritesWhatReadingEveryNoteDoes() throws {
        var random = SeededGenerator(seed: 26)
        var skipped = 0
        for round in 0..<16 {
            let kit = try KitVault()
            defer { kit.remove() }
            let paths = try Self.writeVault(kit, random: &random)
            let session = try VaultSession(vault: kit.vault, environment: kit.environment)
            let catalog = session.catalog
            let notes = catalog.recordHeads.map { Note(record: $0, withFrontMatter: false) }
            #expect(notes.count == paths.count, "round \(round)")
            let moved = try #require(paths.randomElement(using: &random))
            let plan: MovePlan
            if Bool.random(using: &random) {
                let name = (moved as NSString).lastPathComponent
                let folder = try #require(Self.folders.filter { $0 + name != moved }.randomElement(using: &random))
                let destination = folder + name
                guard !paths.contains(destination) else { continue }
                plan = MovePlan(notes: [ExactPath(moved): destination])
            } else {
                // Half the time another note's title: links that led to it must still.
                let other = try #require(notes.filter { $0.path != moved }.randomElement(using: &random))
                let title = Bool.random(using: &random) ? other.title : try #require(Self.words.randomElement(using: &random)) + " \(round)"
                plan = try NoteRetitle.plan(vault: kit.vault, path: moved, folder: (moved as NSString).deletingLastPathComponent,
                                            title: title, current: notes.first { $0.path == moved }?.title)
            }
            let now = Date(timeIntervalSince1970: 1_790_000_000)
            let reads = Counter()
            let counting: @Sendable (String) -> Data? = { _ in reads.add(); return nil }
            let everyNote = try NoteMover.prepare(vault: kit.vault, notes: notes, plan: plan, options: MoveOptions(now: now), unsaved: counting)
            let readEverywhere = reads.value
            var options = MoveOptions(now: now)
            options.linkingNotes = MoveOptions.linkingNotes(in: catalog)
            let linking = try NoteMover.prepare(vault: kit.vault, notes: notes, plan: plan, options: options, unsaved: counting)
            let label = "round \(round): \(plan.notes) \(plan.titles)"
            #expect(linking.report.edits == everyNote.report.edits, "\(label)")
            #expect(linking.report.left == everyNote.report.left, "\(label)")
            #expect(linking.writes.map(\.newPath) == everyNote.writes.map(\.newPath), "\(label)")
            #expect(linking.writes.map(\.data) == everyNote.writes.map(\.data), "\(label)")
            if reads.value - readEverywhere < readEverywhere { skipped += 1 }
        }
        // The link terms left notes unread in most rounds: the lookup is used, not bypassed.
        #expect(skipped >= 8)
    }

    /// The repair after a sync that brought moves (`LinkRepair.afterSync`'s run) reads only
    /// the notes the link terms name, with the edits and the explained links of reading every note.
    @Test func theRepairAfterASyncReadsOnlyTheLinkingNotesWithTheSameEdits() throws {
        var random = SeededGenerator(seed: 27)
        for round in 0..<10 {
            let kit = try KitVault()
            defer { kit.remove() }
            let paths = try Self.writeVault(kit, random: &random)
            // Moved on another device: the file is elsewhere, the links to it are not rewritten.
            let old = try #require(paths.randomElement(using: &random))
            let name = (old as NSString).lastPathComponent
            guard let folder = Self.folders.filter({ $0 + name != old && !paths.contains($0 + name) }).randomElement(using: &random)
            else { continue }
            try FileManager.default.createDirectory(at: kit.root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: kit.root.appendingPathComponent(old), to: kit.root.appendingPathComponent(folder + name))
            let catalog = try VaultSession(vault: kit.vault, environment: kit.environment).catalog
            let notes = catalog.recordHeads.map { Note(record: $0, withFrontMatter: false) }
            let moved = [MovedNote(oldPath: old, newPath: folder + name)]
            let now = Date(timeIntervalSince1970: 1_790_000_000)
            let everyNote = try LinkRepair.run(vault: kit.vault, notes: notes, moved: moved, options: MoveOptions(now: now, dryRun: true),
                                               aliases: false)
            var options = MoveOptions(now: now, dryRun: true)
            options.linkingNotes = MoveOptions.linkingNotes(in: catalog)
            let linking = try LinkRepair.run(vault: kit.vault, notes: notes, moved: moved, options: options, aliases: false)
            let label = "round \(round): \(old) → \(folder + name)"
            #expect(linking.edits == everyNote.edits, "\(label)")
            #expect(linking.changed == everyNote.changed, "\(label)")
            #expect(linking.left.filter { $0.reason != .unresolved } == everyNote.left.filter { $0.reason != .unresolved }, "\(label)")
        }
    }

    /// Writes 24 notes with random names, titles, aliases and links; returns their paths.
    static func writeVault(_ kit: KitVault, random: inout SeededGenerator) throws -> [String] {
        var notes: [(path: String, title: String, alias: String?)] = []
        for index in 0..<24 {
            let folder = folders.randomElement(using: &random) ?? ""
            let word = words.randomElement(using: &random) ?? "x"
            // Shared file names across folders make some names ambiguous.
            let stem = index % 5 == 0 ? word.lowercased() : "\(word.lowercased())-\(index)"
            let path = folder + stem + ".md"
            guard !notes.contains(where: { $0.path == path }) else { continue }
            let title = Bool.random(using: &random) ? "\(word) note \(index)" : stem
            notes.append((path, title, Bool.random(using: &random) ? "\(word) alias \(index)" : nil))
        }
        for note in notes {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let other = notes.randomElement(using: &random) ?? note
                let stem = LinkPathText.withoutExtension(LinkPathText.fileName(of: other.path))
                let relative = LinkTarget.relativePath(to: other.path, from: LinkPathText.folder(of: note.path))
                let forms = ["[[\(stem)]]", "[[\(stem.uppercased())|label]]", "[[\(other.title)]]", "[[\(other.title)#Part]]",
                             "[[\(LinkPathText.withoutExtension(other.path))]]", "[see](\(relative))", "[[Missing \(stem)]]",
                             other.alias.map { "[[\($0)]]" } ?? "[[\(stem)]]"]
                lines.append("Text " + (forms.randomElement(using: &random) ?? "") + " more.")
            }
            var front = "---\ntitle: \(note.title)\n"
            if let alias = note.alias { front += "aliases: [\(alias)]\n" }
            if Bool.random(using: &random), let other = notes.randomElement(using: &random) {
                front += "related: \"[[\(LinkPathText.withoutExtension(LinkPathText.fileName(of: other.path)))]]\"\n"
            }
            try kit.write(front + "---\n# Part\n" + lines.joined(separator: "\n") + "\n", to: note.path)
        }
        return notes.map(\.path)
    }
}

/// A count shared with `@Sendable` closures.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
