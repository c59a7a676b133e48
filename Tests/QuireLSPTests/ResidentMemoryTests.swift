import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// What the language server keeps resident: it answers from its own compact tables, not from
/// every record of the catalog decoded (at 100,000 notes that was most of its memory).
@Suite struct ResidentMemoryTests {
    /// The catalog is loaded from the snapshot a command wrote; building the note directory
    /// reads every note's record once but keeps none, and completion still knows every note.
    @Test func theServerKeepsNoRecordDecodedAfterOpeningTheCatalog() throws {
        let count = 2_000
        var files: [String: String] = [:]
        for index in 0..<count {
            files["notes/note-\(index).md"] = "---\ntitle: Note \(index)\ntags: [t\(index % 7)]\nstatus: s\(index % 3)\n---\n"
                + "Body of note \(index), see [[note-\((index + 1) % count)]].\n"
        }
        let root = try LSPHarness.vault(files)
        try #require(try LSPHarness.quire(["index"], in: root) == 0)
        let opened = OpenedSession()
        let client = LSPClient(inProcess: root) { vault, environment in
            let session = try VaultSession(vault: vault, environment: environment)
            opened.set(session)
            return session
        }
        try client.initialize()
        let symbols = try client.result("workspace/symbol", .object([("query", .string("note 1999"))]))
        #expect(symbols.array?.first?["name"] == .string("Note 1999"))
        let (kept, notes) = try #require(opened.read { ($0.catalog.keptRecordCount, $0.directory.count) })
        #expect(notes == count)
        #expect(kept < 10, "the catalog keeps \(kept) of \(count) records decoded")
        #expect(try client.stop() == 0, "\(client.log)")
    }

    @Test func packedFieldsGiveBackWhatWasPacked() {
        let long = String(repeating: "é", count: 300)
        let fields: [(key: String, values: [String])] = [("title", ["A"]), ("tags", ["x", "", "ü"]), ("empty", []), ("long", [long])]
        let unpacked = PackedFields(fields).fields
        #expect(unpacked.map(\.key) == fields.map(\.key))
        #expect(unpacked.map(\.values) == fields.map(\.values))
        #expect(PackedFields([]).fields.isEmpty)
        #expect(PackedFields(fields) != PackedFields([("title", ["B"])]))
    }
}

/// The session the server opened, for a test to look into once the server answered (the
/// server's actor is idle then).
private final class OpenedSession: @unchecked Sendable {
    private let lock = NSLock()
    private var session: VaultSession?

    func set(_ session: VaultSession) {
        lock.lock()
        defer { lock.unlock() }
        self.session = session
    }

    func read<T>(_ body: (VaultSession) -> T) -> T? {
        lock.lock()
        defer { lock.unlock() }
        return session.map(body)
    }
}
