import Foundation
import QuireCore
import QuireTestSupport
@testable import QuireSearch

/// Random changes to a vault of linked notes (`CatalogLinkAgreementTests.text`), shared by the
/// link tests: new paths among a few names and folders, titles, and edits, removals, renames
/// and additions, each giving the paths it changed.
struct RandomLinkEdits {
    let vault: TestVault
    var random: SeededGenerator
    /// Every this many new paths is a bare name (no serial): names shared across folders.
    let bareEvery: Int
    private var serial = 0

    init(vault: TestVault, seed: UInt64, bareEvery: Int) {
        self.vault = vault
        random = SeededGenerator(seed: seed)
        self.bareEvery = bareEvery
    }

    /// A path for a new note.
    mutating func newPath() -> String {
        serial += 1
        let names = CatalogLinkAgreementTests.names, folders = CatalogLinkAgreementTests.folders
        let folder = folders[serial % folders.count]
        let name = names[Int(random.next() % UInt64(names.count))] + (serial % bareEvery == 0 ? "" : " \(serial)")
        return (folder.isEmpty ? "" : folder + "/") + name + ".md"
    }

    /// A title, or none (half the time).
    mutating func title() -> String? {
        let names = CatalogLinkAgreementTests.names
        return random.next() % 2 == 0 ? "T " + names[Int(random.next() % UInt64(names.count))] : nil
    }

    /// A note's text.
    mutating func text() -> String {
        let title = title()
        return CatalogLinkAgreementTests.text(&random, title: title)
    }

    /// One change of kind `kind` (0 edit, 1 removal, 2 rename — those two only while more than
    /// twelve notes are left — anything else an addition) to a note of `names`, which follows;
    /// the paths changed.
    mutating func change(_ kind: UInt64, names: inout [String]) throws -> [String] {
        let name = names[Int(random.next() % UInt64(names.count))]
        switch kind {
        case 0:
            try vault.write(name, text())
            return [name]
        case 1 where names.count > 12:
            try vault.remove(name)
            names.removeAll { $0 == name }
            return [name]
        case 2 where names.count > 12:
            let renamed = newPath()
            guard !names.contains(renamed) else { return [] }
            let data = try Data(contentsOf: URL(fileURLWithPath: vault.root + "/" + name))
            try vault.remove(name)
            try vault.write(renamed, String(decoding: data, as: UTF8.self))
            names.removeAll { $0 == name }
            names.append(renamed)
            return [name, renamed]
        default:
            let added = newPath()
            try vault.write(added, text())
            if !names.contains(added) { names.append(added) }
            return [added]
        }
    }

    /// The catalog of a new vault of `notes` random notes (`seed`, `bareEvery` as above).
    static func store(notes: Int, seed: UInt64, bareEvery: Int) throws -> (TestVault, CatalogStore) {
        let vault = try TestVault()
        var edits = RandomLinkEdits(vault: vault, seed: seed, bareEvery: bareEvery)
        for _ in 0..<notes { try vault.write(edits.newPath(), edits.text()) }
        return (vault, CatalogStore(root: vault.root, paths: vault.notePaths(), parse: { data, path in NoteParser.parse(data, path: path) }))
    }

    /// `bytes` of a snapshot file with one random bit flipped and every checksum made to pass
    /// again (`SnapshotFile.reseal`).
    static func resealedDamage(of bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(1 << (random.next() % 8))
        SnapshotFile.reseal(&bytes)
        return bytes
    }
}
