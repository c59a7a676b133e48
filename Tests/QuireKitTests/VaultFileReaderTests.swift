import Foundation
import QuireCore
@testable import QuireKit
import Testing

/// `VaultFileReader` (what `backlinks` reads its linking notes with) reads what `Vault.readData`
/// reads and refuses what it refuses: a symlink (the note's or a folder's) out of the vault or
/// into a hidden folder is never followed, one inside is.
@Suite struct VaultFileReaderTests {
    @Test func itReadsAndRefusesAsTheCheckedWayDoes() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        let manager = FileManager.default
        let outside = manager.temporaryDirectory.appendingPathComponent("quire-outside-\(UUID().uuidString)")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: outside) }
        try Data("secret\n".utf8).write(to: outside.appendingPathComponent("s.md"))
        try kit.write("# a\nline\n", to: "A/a.md")
        try kit.write("# root\n", to: "root.md")
        try kit.write("", to: "A/empty.md")
        try kit.write(String(repeating: "long line\n", count: 2_000), to: "A/long.md")
        func link(_ path: String, to target: String) throws {
            try manager.createSymbolicLink(atPath: kit.root.appendingPathComponent(path).path, withDestinationPath: target)
        }
        try link("Out", to: outside.path)
        try link("A/out.md", to: outside.appendingPathComponent("s.md").path)
        try link("A/in.md", to: kit.root.appendingPathComponent("root.md").path)
        try link("In", to: kit.root.appendingPathComponent("A").path)
        try link("Git", to: kit.root.appendingPathComponent(".git").path)
        try kit.write("x\n", to: ".git/x.md")
        try manager.createDirectory(at: kit.root.appendingPathComponent("A/folder.md"), withIntermediateDirectories: true)
        let paths = ["A/a.md", "root.md", "A/empty.md", "A/long.md", "Out/s.md", "A/out.md", "A/in.md", "In/a.md",
                     "Git/x.md", "A/missing.md", "Missing/x.md", "A/folder.md"]
        let reader = VaultFileReader(vault: kit.vault, paths: paths)
        for path in paths {
            let checked = Result { Array(try kit.vault.readData(path)) }
            let read = Result { try reader.read(path) }
            switch (checked, read) {
            case (.success(let expected), .success(let bytes)):
                #expect(bytes == expected, "\(path)")
            case (.failure(let expected), .failure(let error)):
                #expect("\(error)" == "\(expected)", "\(path)")
            default:
                Issue.record("\(path): \(checked) read as \(read)")
            }
        }
        #expect(throws: CoreError.self) { try reader.read("Out/s.md") }
        #expect(throws: CoreError.self) { try reader.read("A/out.md") }
        #expect(try reader.read("In/a.md") == Array("# a\nline\n".utf8))
    }
}
