import Foundation
import QuireCore
import QuireGit

/// `quire rm NOTE` — deletes a note; one never committed goes to the trash instead.
struct RemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rm",
        abstract: "Remove a note (restorable: from history if committed, else from .quire/local/trash/).",
        usage: "rm NOTE",
        discussion: """
        A note that was committed stays in the vault's history: 'quire history --deleted' lists it and
        'quire restore' brings it back. A note never committed is moved to .quire/local/trash/.
        """,
        examples: ["quire rm \"Woody's last ride\""],
        positionals: 1...1)

    let note: String

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
    }

    /// Whether the note is in the tree of the last commit exactly as it is on disk (so history
    /// keeps every byte of it). A note with uncommitted changes is not: those would be lost.
    static func isCommittedUnchanged(_ path: String, data: Data, in repository: Repository) throws -> Bool {
        guard let head = try repository.headCommitID(),
              let entry = try repository.entry(atPath: path, inTree: repository.treeID(ofCommit: head)) else { return false }
        return try repository.blobData(entry.id) == data
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let shown = context.displayPath(found.path, vault: vault)
        let repository = try Repository.open(at: vault.root)
        let data = try vault.readData(found.path)
        if try Self.isCommittedUnchanged(found.path, data: data, in: repository) {
            do {
                try FileManager.default.removeItem(at: vault.root.appendingPathComponent(found.path))
            } catch {
                throw CLIError("cannot remove \(shown) (\(error.localizedDescription))")
            }
            context.output.line("removed \(shown) (it stays in history: quire history --deleted)")
            return
        }
        let committed = try repository.headCommitID().flatMap {
            try repository.entry(atPath: found.path, inTree: repository.treeID(ofCommit: $0))
        } != nil
        let trashPath = TrashStamp.freeTrashPath(for: found.path, at: try context.now(), in: vault)
        try FileMover.move(in: vault, from: found.path, to: trashPath)
        context.output.line("moved \(shown) to \(context.displayPath(trashPath, vault: vault)) (\(committed ? "changes never committed" : "never committed"))")
    }
}

/// `YYYYMMDDTHHMMSSZ` in UTC, for trash folders and backup refs.
enum TrashStamp {
    /// `.quire/local/trash/<stamp>/<path>` for a note removed at `date`; when that is taken
    /// (the same path removed twice in one second) the folder `<stamp>-2`, `<stamp>-3`, …
    static func freeTrashPath(for path: String, at date: Date, in vault: Vault) -> String {
        let stamp = text(date)
        var folder = stamp
        var counter = 2
        while FileManager.default.fileExists(atPath: vault.url(for: ".quire/local/trash/\(folder)/\(path)").path) {
            folder = "\(stamp)-\(counter)"
            counter += 1
        }
        return ".quire/local/trash/\(folder)/\(path)"
    }

    /// Whether trash folder `first` is older than `second` (`<stamp>-10` after `<stamp>-9`).
    static func isOlder(_ first: String, _ second: String) -> Bool {
        func key(_ folder: String) -> (String, Int) {
            let parts = folder.split(separator: "-", maxSplits: 1)
            return (parts.first.map(String.init) ?? folder, parts.count > 1 ? Int(parts[1]) ?? 0 : 1)
        }
        return key(first) < key(second)
    }

    static func text(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
