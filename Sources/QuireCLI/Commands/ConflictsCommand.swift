import Foundation
import QuireCore
import QuireSync

/// `quire conflicts` — automatic resolutions that dropped text.
struct ConflictsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "conflicts",
        abstract: "List automatic merge decisions that dropped text (every device sees the same list).",
        usage: "conflicts [--all] [--json]",
        discussion: """
        Each entry names the note, the side that won and why; where a merge dropped words in a few
        places of a note, the places (by line) and the words. 'quire conflicts show ID' prints the
        version that lost, 'quire restore NOTE --conflict ID' brings it back, and
        'quire conflicts dismiss ID' hides the entry on this device.
        """,
        examples: ["quire conflicts", "quire conflicts show 8c41e2a9", "quire conflicts --json"],
        options: [
            .flag("--all", help: "Include dismissed entries."),
            .flag("--json", help: "Print as JSON."),
        ])

    let all: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        all = arguments.has("--all")
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let records = try ConflictLog(vaultRoot: vault.root).records(includeDismissed: all)
        let output = context.output
        let device = vault.deviceName(environment: context.environment)
        if json {
            output.line(JSON.array(records.map { record in
                .object([("id", .string(record.id)), ("path", .string(record.path)), ("time", .string(DateText.iso(record.time))),
                         ("device", .string(record.device)), ("winner", .string(record.winner.rawValue)),
                         ("reason", .string(record.readableReason(seenBy: nil))),
                         ("keptFrom", .string(record.sides.name(of: record.winner))),
                         ("droppedFrom", .string(record.sides.name(of: record.winner.other))),
                         ("lost", record.lost.map { .string($0) } ?? .null),
                         ("ours", .string(record.ours)), ("theirs", .string(record.theirs)),
                         ("dismissed", .bool(record.dismissed))])
            }).rendered(.output))
            return
        }
        if records.isEmpty {
            output.line("no conflicts: no automatic merge has dropped text")
            return
        }
        for record in records {
            output.line("\(output.styled(record.id, "33")) \(DateText.short(record.time))  \(record.device)  \(context.displayPath(record.path, vault: vault))")
            let names = record.sides(seenBy: device)
            output.line("    kept \(names.version(of: record.winner)), dropped \(names.version(of: record.winner.other)): "
                + "\(record.readableReason(seenBy: device))\(record.dismissed ? " (dismissed)" : "")")
        }
        output.line("'quire conflicts show ID' prints the other version; 'quire restore NOTE --conflict ID' brings it back")
        // Two devices of one name (`Namesake`): both sides of their merges read as one device.
        if let same = records.first(where: { $0.device == $0.theirsDevice }) {
            output.line("note: some of these merge the versions of two devices that both sync as \"\(same.device)\", so both sides "
                + "read alike; give each device a name of its own: 'device: NAME' in .quire/local/config.yml")
        }
    }
}

/// `quire conflicts show ID`.
struct ConflictShowCommand: ConflictIDCommand {
    static let configuration = conflictsConfiguration(action: "show", abstract: "Print the version of a note that lost an automatic merge.")

    let id: String

    func run(_ context: CommandContext) throws {
        let log = try ConflictLog(vaultRoot: context.vault().root)
        let record = try log.record(id)
        guard let data = try log.losingVersion(of: record) else { throw Self.noLosingVersion(record) }
        context.output.write(bytes: Array(data))
    }

    /// The error for a record whose losing side holds no version of the note: it deleted it.
    static func noLosingVersion(_ record: ConflictRecord) -> CLIError {
        ErrorTranslator.translate(kit: .noLosingVersion(id: record.id, path: record.path, reason: record.reason))
    }
}

/// `quire conflicts dismiss ID`.
struct ConflictDismissCommand: ConflictIDCommand {
    static let configuration = conflictsConfiguration(action: "dismiss",
                                                      abstract: "Hide a conflict from 'quire conflicts' on this device (history keeps it).")

    let id: String

    func run(_ context: CommandContext) throws {
        let record = try ConflictLog(vaultRoot: context.vault().root).dismiss(id)
        context.output.line("dismissed \(record.id) (\(record.path)); 'quire conflicts --all' still lists it")
    }
}

/// A `quire conflicts ACTION ID` command: it acts on the one entry the ID names.
protocol ConflictIDCommand: Command {
    /// The command for the entry `id` names.
    init(id: String)
}

extension ConflictIDCommand {
    init(_ arguments: ParsedArguments) throws {
        self.init(id: arguments.positionals[0])
    }

    /// The configuration of `quire conflicts <action> ID`.
    static func conflictsConfiguration(action: String, abstract: String) -> CommandConfiguration {
        CommandConfiguration(name: "conflicts " + action, abstract: abstract, usage: "conflicts \(action) ID",
                             examples: ["quire conflicts \(action) 8c41e2a9"], positionals: 1...1)
    }
}
