import Foundation
import QuireCore
import QuireSearch

/// `quire stats [NOTE]` — words, reading time, notes per folder, project and tag, drafts vs final.
struct StatsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Words, reading time and note counts per folder, project and tag.",
        usage: "stats [NOTE] [--json]",
        discussion: "Reading time assumes 200 words a minute. With NOTE, statistics of that note only.",
        examples: ["quire stats", "quire stats \"Woody's last ride\" --json"],
        options: [.flag("--json", help: "Print the statistics as JSON.")],
        positionals: 0...1)

    let note: String?
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals.first
        json = arguments.has("--json")
    }

    /// Rows per section in the human output (the most used first); --json has them all.
    static let rowsShown = 15

    static func readingMinutes(_ words: Int) -> Int { words == 0 ? 0 : max(1, Int((Double(words) / 200).rounded())) }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let output = context.output
        if let note {
            let found = try all.resolveFully(note, context: context)
            if json {
                output.line(JSON.object([
                    ("path", .string(found.path)), ("title", .string(found.title)), ("words", .int(found.words)),
                    ("readingMinutes", .int(Self.readingMinutes(found.words))),
                    ("characters", .int(found.body.count)),
                ]).rendered(.output))
            } else {
                output.line("\(found.title): \(found.words) words, \(Self.readingMinutes(found.words)) min read, \(found.body.count) characters")
            }
            return
        }
        all.warnAboutProblems(output)
        // One pass over every note's first fields, none of them kept.
        var noteCount = 0, words = 0, drafts = 0
        var folders: [String: Int] = [:], projects: [[String]] = [], tags: [[String]] = []
        all.catalog.catalog.forEachRecordHead { record in
            noteCount += 1
            words += record.words
            if record.draft { drafts += 1 }
            folders[record.folder, default: 0] += 1
            projects.append(record.project.map { [$0] } ?? [])
            tags.append(record.tags)
        }
        let byFolder = Self.mostFirst(folders)
        // The one counting rule, as `quire tags` and `quire projects` count (`NameCount`).
        let byProject = Self.rows(NameCount.counting(projects))
        let byTag = Self.rows(NameCount.counting(tags))
        if json {
            func table(_ rows: [(String, Int)]) -> JSON {
                .array(rows.map { .object([("name", .string($0.0)), ("notes", .int($0.1))]) })
            }
            output.line(JSON.object([
                ("notes", .int(noteCount)), ("words", .int(words)),
                ("readingMinutes", .int(Self.readingMinutes(words))),
                ("drafts", .int(drafts)), ("final", .int(noteCount - drafts)),
                ("folders", table(byFolder)), ("projects", table(byProject)), ("tags", table(byTag)),
            ]).rendered(.output))
            return
        }
        output.line("\(Count.of(noteCount, "note")), \(Count.of(words, "word")), \(Self.readingMinutes(words)) min read")
        output.line("\(Count.of(drafts, "draft")), \(noteCount - drafts) final")
        for (heading, rows) in [("Folders", byFolder), ("Projects", byProject), ("Tags", byTag)] where !rows.isEmpty {
            output.line()
            output.line(output.styled(heading, "1"))
            let shown = rows.prefix(Self.rowsShown)
            let width = shown.map { ($0.0.isEmpty ? "(root)" : $0.0).count }.max() ?? 0
            for (name, count) in shown {
                let label = name.isEmpty ? "(root)" : name
                output.line("  \(label)\(String(repeating: " ", count: width - label.count))  \(count)")
            }
            if rows.count > shown.count {
                output.line("  … and \(rows.count - shown.count) more (quire stats --json lists them all)")
            }
        }
    }

    /// Tag or project counts as rows, most first, ties by name.
    static func rows(_ counts: [NameCount]) -> [(String, Int)] {
        NameCount.mostUsedFirst(counts).map { ($0.name, $0.count) }
    }

    /// Counts per folder, most first, ties by name.
    static func mostFirst(_ counts: [String: Int]) -> [(String, Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
