import Foundation
import Testing

/// `quire import --from joplin` (issue 36) on exports built here from Joplin's published
/// formats: the "Markdown + Front Matter" export (notebooks as folders, `_resources/`,
/// `created`/`updated` as `YYYY-MM-DD HH:MM:SSZ`, `completed?`, `due`, …) and a JEX archive (a
/// tar of raw items: title, blank line, body, blank line, `key: value` metadata with `type_`).
@Suite("quire import --from joplin")
struct JoplinImportTests {
    static let ids = (chart: "0b1d5c7e9a2f4e6c8b0d1f3a5c7e9b2d", budget: "1a2b3c4d5e6f708192a3b4c5d6e7f809",
                      plan: "2b3c4d5e6f708192a3b4c5d6e7f8091a", done: "3c4d5e6f708192a3b4c5d6e7f8091a2b",
                      work: "4d5e6f708192a3b4c5d6e7f8091a2b3c", projects: "5e6f708192a3b4c5d6e7f8091a2b3c4d",
                      urgent: "6f708192a3b4c5d6e7f8091a2b3c4d5e")

    /// One raw item as Joplin serializes it (`BaseItem.serialize`).
    static func item(title: String?, body: String = "", _ properties: [(String, String)]) -> String {
        var parts: [String] = []
        if let title { parts.append(title) }
        if !body.isEmpty { parts.append(body) }
        parts.append(properties.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
        return parts.joined(separator: "\n\n")
    }

    static func milliseconds(_ iso: String) -> String {
        let date = ISO8601DateFormatter().date(from: iso) ?? Date(timeIntervalSince1970: 0)
        return String(Int64(date.timeIntervalSince1970 * 1000))
    }

    static func note(_ id: String, _ title: String, parent: String, body: String, todo: Bool = false,
                     due: String? = nil, completed: String? = nil) -> String {
        item(title: title, body: body, [
            ("id", id), ("parent_id", parent), ("created_time", "2026-11-01T09:30:00.125Z"),
            ("updated_time", "2026-11-20T10:00:00.000Z"), ("is_conflict", "0"), ("latitude", "52.52000000"),
            ("longitude", "13.40500000"), ("altitude", "0.0000"), ("author", todo ? "Ann" : ""),
            ("source_url", todo ? "https://example.com/q3" : ""), ("is_todo", todo ? "1" : "0"),
            ("todo_due", due.map(milliseconds) ?? "0"), ("todo_completed", completed.map(milliseconds) ?? "0"),
            ("source", "joplin-desktop"), ("source_application", "net.cozic.joplin-desktop"), ("application_data", ""),
            ("order", "0"), ("user_created_time", "2026-11-01T09:30:00.125Z"), ("user_updated_time", "2026-11-20T10:00:00.000Z"),
            ("encryption_cipher_text", ""), ("encryption_applied", "0"), ("markup_language", "1"), ("is_shared", "0"),
            ("type_", "1"),
        ])
    }

    /// A JEX archive: every item `<id>.md`, the resource's bytes under `resources/`.
    static func jex() -> Data {
        let ids = Self.ids
        var tar = TarWriter()
        tar.add("\(ids.work).md", item(title: "Work", [("id", ids.work), ("parent_id", ""), ("type_", "2")]))
        tar.add("\(ids.projects).md", item(title: "Projects", [("id", ids.projects), ("parent_id", ids.work), ("type_", "2")]))
        tar.add("\(ids.urgent).md", item(title: "urgent", [("id", ids.urgent), ("type_", "5")]))
        tar.add("\(ids.budget).md", note(ids.budget, "Budget review Q3", parent: ids.projects,
                                         body: "![chart](:/\(ids.chart))\n\nSee [the plan](:/\(ids.plan)).",
                                         todo: true, due: "2026-12-02T17:00:00Z"))
        tar.add("\(ids.plan).md", note(ids.plan, "Plan", parent: ids.work, body: "The plan."))
        tar.add("\(ids.done).md", note(ids.done, "Send invoices", parent: ids.work, body: "Sent.", todo: true,
                                       due: "2026-11-25T09:00:00Z", completed: "2026-11-24T16:00:00Z"))
        tar.add("7a8b9c0d1e2f30415263748596a7b8c9.md", item(title: nil, [("id", "7a8b9c0d1e2f30415263748596a7b8c9"),
                                                                       ("note_id", ids.budget), ("tag_id", ids.urgent), ("type_", "6")]))
        tar.add("\(ids.chart).md", item(title: "chart.png", [("id", ids.chart), ("mime", "image/png"), ("filename", ""),
                                                            ("file_extension", "png"), ("updated_time", "2026-11-02T08:00:00.000Z"),
                                                            ("type_", "4")]))
        tar.add("resources/\(ids.chart).png", "PNG bytes")
        return tar.finish()
    }

    @Test func aJEXArchiveMovesInWithNotebooksResourcesTagsAndQueryableToDos() throws {
        let vault = try TestVault()
        let archive = vault.root.deletingLastPathComponent().appendingPathComponent("notes.jex")
        try Self.jex().write(to: archive)
        let run = try vault.run(["import", archive.path, "--from", "joplin"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("imported 3 notes"), "\(run.stdout)")
        #expect(try vault.read("_resources/chart.png") == "PNG bytes")
        #expect(try vault.read("Work/Projects/Budget review Q3.md") == """
            ---
            id: 1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809
            title: Budget review Q3
            createdAt: 2026-11-01T09:30:00+00:00
            updatedAt: 2026-11-20T10:00:00+00:00
            tags: [urgent]
            todo: true
            completed: false
            due: 2026-12-02T17:00:00+00:00
            author: Ann
            source: https://example.com/q3
            latitude: 52.52
            longitude: 13.405
            ---
            ![chart](../../_resources/chart.png)

            See [the plan](../Plan.md).

            """)
        #expect(try vault.read("Work/Send invoices.md").contains("todo: true\ncompleted: true\ndue: 2026-11-25T09:00:00+00:00\n"))
        #expect(try !vault.read("Work/Plan.md").contains("todo"))
        // The links lead where they should; the to-dos answer the query language.
        #expect(try vault.run(["check"]).stdout == "no problems in 3 notes\n")
        #expect(try vault.run(["list", "todo:true", "completed:false", "due:<7d", "--paths"]).stdout == "Work/Projects/Budget review Q3.md\n")
        #expect(try vault.run(["list", "todo:true", "completed:false", "due:<2d", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "tag:urgent", "--paths"]).stdout == "Work/Projects/Budget review Q3.md\n")
        // Again: nothing new.
        let again = try vault.run(["import", archive.path, "--from", "joplin"])
        #expect(again.stdout == "imported 0 notes, copied 0 attachments, skipped 3 already in the vault, 0 failed\n", "\(again.stdout) \(again.stderr)")
        // Not a tar archive: said so.
        try Data("not a tar".utf8).write(to: archive)
        let bad = try vault.run(["import", archive.path, "--from", "joplin"])
        #expect(bad.code == 1 && bad.stderr.contains("not a tar archive"), "\(bad.stderr)")
    }

    @Test func aMarkdownFrontMatterExportMovesInWithItsToDos() throws {
        let source = try Harness.temporaryDirectory("quire-joplin-md")
        let exported = """
            ---
            title: Budget review Q3
            updated: 2026-11-20 10:00:00Z
            created: 2026-11-01 09:30:00Z
            author: Ann
            source: https://example.com/q3
            latitude: 52.52000000
            longitude: 13.40500000
            altitude: 0.0000
            completed?: no
            due: 2026-12-02 17:00:00Z
            tags:
              - urgent
            ---

            ![chart](../_resources/chart.png)

            """
        try Harness.write(exported, to: source.appendingPathComponent("Work/Budget review Q3.md"))
        try Harness.write("---\ntitle: Invoices\ncompleted?: yes\ndue: 2026-11-25 09:00:00Z\n---\n\nSent.\n",
                          to: source.appendingPathComponent("Work/Invoices.md"))
        try Harness.write("PNG bytes", to: source.appendingPathComponent("_resources/chart.png"))
        let vault = try TestVault()
        let run = try vault.run(["import", source.path, "--from", "joplin"])
        #expect(run.code == 0, "\(run.stderr)")
        let budget = try vault.read("Work/Budget review Q3.md")
        // The dates under quire's keys, the to-do in its terms, an id; every other line as it was.
        let mapped = exported.replacingOccurrences(of: "updated:", with: "updatedAt:").replacingOccurrences(of: "created:", with: "createdAt:")
            .replacingOccurrences(of: "completed?: no", with: "completed: false")
            .replacingOccurrences(of: "  - urgent\n---", with: "  - urgent\ntodo: true\nid: 52d8aca6-192e-521d-9639-d27c8a777b8b\n---")
        #expect(budget == mapped, "\(budget)")
        #expect(try vault.read("_resources/chart.png") == "PNG bytes")
        #expect(try vault.run(["list", "todo:true", "completed:false", "due:<7d", "--paths"]).stdout == "Work/Budget review Q3.md\n")
        #expect(try vault.run(["list", "todo:true", "completed:true", "--paths"]).stdout == "Work/Invoices.md\n")
        #expect(try vault.run(["list", "created:2026-11-01", "--paths"]).stdout == "Work/Budget review Q3.md\n")
        #expect(try vault.run(["check"]).stdout == "no problems in 2 notes\n")
        let again = try vault.run(["import", source.path, "--from", "joplin"])
        #expect(again.stdout == "imported 0 notes, copied 0 attachments, skipped 2 already in the vault, 0 failed\n", "\(again.stdout) \(again.stderr)")
    }
}

/// A POSIX ustar archive written in memory (tests only), as Joplin's exporter writes one.
struct TarWriter {
    private var bytes: [UInt8] = []

    mutating func add(_ path: String, _ text: String) { add(path, Data(text.utf8)) }

    mutating func add(_ path: String, _ data: Data) {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) { for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte } }
        put(path, at: 0)
        put("0000644", at: 100)
        put("0000000", at: 108)
        put("0000000", at: 116)
        put(String(format: "%011o", data.count), at: 124)
        put(String(format: "%011o", 1_796_000_000), at: 136)
        put("        ", at: 148)
        put("0", at: 156)
        put("ustar", at: 257)
        put("00", at: 263)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(String(format: "%06o", sum), at: 148)
        header[154] = 0
        header[155] = UInt8(ascii: " ")
        bytes += header + [UInt8](data)
        bytes += [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    func finish() -> Data { Data(bytes + [UInt8](repeating: 0, count: 1024)) }
}
