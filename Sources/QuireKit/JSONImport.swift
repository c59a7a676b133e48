import Foundation
import QuireCore
import QuireSearch

/// What `JSONImport.run` needs to know besides the file.
public struct JSONImportOptions: Sendable {
    /// Where entries without a `path` go (vault-relative, `""` = the root).
    public var folder: String
    /// The time given to entries without `createdAt`.
    public var now: Date
    /// The zone dates are written in (and naive dates read in).
    public var timeZone: TimeZone
    /// The process environment (the catalog asks a running `quire watch` through it).
    public var environment: [String: String]

    /// Options for an import into `folder`.
    public init(folder: String = "", now: Date, timeZone: TimeZone = .current, environment: [String: String] = [:]) {
        self.folder = folder
        self.now = now
        self.timeZone = timeZone
        self.environment = environment
    }
}

/// A whole import file that cannot be read at all (nothing is written then).
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is an array whose JSON is broken, or neither an array nor JSON Lines.
    case unreadable(path: String, line: Int?, reason: String)
    /// The folder to import is missing or not a folder.
    case notAFolder(path: String)
    /// `--folder` names a hidden folder (`.quire/…`), where quire would not see the notes.
    case hiddenFolder(path: String)
    /// The file is one JSON object over several lines (not JSON Lines) without an array of
    /// entries under `entries`.
    case notEntries(path: String)

    /// One lowercase sentence naming the file.
    public var description: String {
        switch self {
        case let .unreadable(path, line, reason):
            return "cannot read \(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        case let .notAFolder(path):
            return "not a folder: \(path)"
        case let .hiddenFolder(path):
            return "notes cannot go in a hidden folder: \(path)"
        case let .notEntries(path):
            return "cannot read \(path): expected an array of entries, JSON Lines (one entry a line) or an object"
                + " with an array under \"entries\", found one JSON object over several lines"
        }
    }
}

/// `quire import FILE.json`: journal entries (an array of objects, or JSON Lines) become notes.
/// Known keys become canonical front matter, other keys are kept; quire's own export comes back
/// byte for byte. Entries whose id the vault already holds are skipped, so importing a file
/// twice imports nothing the second time; a bad entry is reported and the rest go on. Nothing is
/// committed (as with `quire new`: the next sync commits).
public enum JSONImport {
    /// Imports `data` (read from `path`, named in errors) into `vault`.
    public static func run(_ data: Data, path: String, into vault: Vault, options: JSONImportOptions,
                           progress: ImportProgress? = nil) throws -> ImportReport {
        try vault.requireWritableFormat()
        let entries = try readEntries(data, path: path)
        let folder = try NotePath.folder(options.folder, in: vault)
        let style = try vault.config().fileNameStyle()
        var writer = ImportWriter(vault: vault, existingIDs: try existingIDs(vault, environment: options.environment),
                                  total: entries.count, progress: progress)
        for (index, entry) in entries.enumerated() {
            let json: JSON
            switch entry {
            case .failure(let error): writer.fail(index, error.description); continue
            case .success(let value): json = value
            }
            do {
                let note = try JSONEntry(json, now: options.now, timeZone: options.timeZone)
                // A converted journal entry's bytes depend on the import (its time) and the note
                // may have been edited since: the vault holding its id makes it a duplicate.
                if !note.isExact, let id = note.id, let existing = writer.path(holding: id) {
                    writer.skip(index, id: id, existingPath: existing)
                    continue
                }
                let target: String
                if let given = note.path {
                    target = try NotePath.checked(given, in: vault)
                } else {
                    target = writer.availablePath(folder: folder, title: note.title, style: style)
                }
                try writer.add(index: index, path: target, id: note.id, data: note.data, chosenPath: note.path == nil)
            } catch let error as ImportEntryError {
                writer.fail(index, error.description)
            } catch let error as CoreError {
                writer.fail(index, error.description)
            }
        }
        return try writer.finish()
    }

    /// The entries of an array, of an object's `entries` array (Day One's export, its keys
    /// mapped by `dayOneEntries`), or JSON Lines (one value a line; blank lines are not entries; a
    /// bad line is a failed entry). A file whose first line is not a whole JSON value is read
    /// as one value: an object without `entries` is refused, as is broken JSON.
    static func readEntries(_ data: Data, path: String) throws -> [Result<JSON, JSONSyntaxError>] {
        let bytes = [UInt8](data)
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        if first == UInt8(ascii: "{") {
            let firstLine = bytes.split(separator: 0x0A).first { $0.contains { ![0x20, 0x09, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } } ?? []
            if (try? JSON.parse(firstLine)) == nil {
                // One value over several lines, not JSON Lines: an object holding the entries.
                let whole: JSON
                do throws(JSONSyntaxError) {
                    whole = try JSON.parse(data)
                } catch {
                    throw ImportError.unreadable(path: path, line: error.line, reason: error.reason)
                }
                guard let entries = dayOneEntries(whole) else { throw ImportError.notEntries(path: path) }
                return entries
            }
            // On one line, Day One's export (compact) is an object holding the entries too.
            if let whole = try? JSON.parse(data), let entries = dayOneEntries(whole) { return entries }
        }
        if first == UInt8(ascii: "[") {
            do throws(JSONSyntaxError) {
                guard case let .array(items) = try JSON.parse(data) else { return [] }
                return items.map { .success($0) }
            } catch {
                throw ImportError.unreadable(path: path, line: error.line, reason: error.reason)
            }
        }
        guard first != nil else { return [] }
        var entries: [Result<JSON, JSONSyntaxError>] = []
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            do throws(JSONSyntaxError) {
                entries.append(.success(try JSON.parse(line)))
            } catch {
                var failure = error
                failure.line = number + 1
                entries.append(.failure(failure))
            }
        }
        return entries
    }

    /// The entries of Day One's export (`{"metadata": …, "entries": [ … ]}`), nil when `file`
    /// holds no array of objects under `entries`. Each entry's keys get quire's names (`uuid` → `id`, `creationDate` →
    /// `createdAt`, `modifiedDate` → `updatedAt`, `text` → `body`, `starred` → `pinned`) where
    /// the entry has no key of that name already; other keys are kept.
    static func dayOneEntries(_ file: JSON) -> [Result<JSON, JSONSyntaxError>]? {
        guard let entries = file["entries"]?.array, entries.allSatisfy(\.isObject) else { return nil }
        let names = ["uuid": "id", "creationDate": "createdAt", "modifiedDate": "updatedAt", "text": "body", "starred": "pinned"]
        return entries.map { entry in
            let members = entry.members ?? []
            let keys = Set(members.map(\.key))
            return .success(.object(members.map { member in
                guard let name = names[member.key], !keys.contains(name) else { return (member.key, member.value) }
                return (name, member.value)
            }))
        }
    }

    /// Every note id of the vault (from its catalog) with the paths of the notes holding it.
    static func existingIDs(_ vault: Vault, environment: [String: String]) throws -> [String: [String]] {
        var ids: [String: [String]] = [:]
        for record in try VaultSession(vault: vault, environment: environment).catalog.recordHeads {
            if let id = record.id { ids[id, default: []].append(record.path) }
        }
        return ids
    }
}

/// The rules for a note path named by an import: inside the vault, a `.md` file, outside
/// `.git/`, `.quire/` and hidden folders (where quire would not see it as a note).
enum NotePath {
    /// The normalised path, or a reason it cannot hold a note.
    static func checked(_ path: String, in vault: Vault) throws -> String {
        let safe = try vault.resolveSafePath(path)
        guard safe.hasSuffix(".md") else { throw ImportEntryError("'path' must name a .md file (\(path))") }
        guard Vault.hiddenComponent(of: safe) == nil else {
            throw ImportEntryError("'path' must not be in a hidden folder (\(path))")
        }
        return safe
    }

    /// The normalised `--folder` of an import (`""` for the root); a hidden folder is refused.
    static func folder(_ folder: String, in vault: Vault) throws -> String {
        guard !folder.isEmpty, folder != "." else { return "" }
        let safe = try vault.resolveSafePath(folder)
        guard Vault.hiddenComponent(of: safe) == nil else {
            throw ImportError.hiddenFolder(path: folder)
        }
        return safe
    }
}
