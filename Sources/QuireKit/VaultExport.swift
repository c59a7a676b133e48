import Foundation
import QuireCore
import QuireSearch

/// What an export needs besides the vault.
public struct ExportOptions: Sendable {
    /// The zone dates are written in.
    public var timeZone: TimeZone
    /// The process environment (the catalog asks a running `quire watch` through it).
    public var environment: [String: String]

    /// Options for an export.
    public init(timeZone: TimeZone = .current, environment: [String: String] = [:]) {
        self.timeZone = timeZone
        self.environment = environment
    }
}

/// An export's output and what it held.
public struct ExportReport: Sendable, Equatable {
    /// The exported text (for `--json`: the JSON array).
    public var data: Data
    /// How many notes it holds.
    public var notes: Int
    /// The vault's attachments (files that are not notes, not ignored), which the JSON does
    /// not hold: `copyAttachments` writes them beside it.
    public var attachments: [String] = []
}

/// `quire export`: the vault's notes in another format. Each format is one function here; the
/// CLI picks one by its flag.
public enum VaultExport {
    /// Every note as a JSON array, one object a line, in the catalog's path order: `path`, the
    /// canonical fields (`id`, `title`, `createdAt`, `updatedAt`, `tags`, `project`, `mood`,
    /// `draft`), every front-matter key under `frontMatter`, the `body`, and the file itself as
    /// `content` (or `contentBase64` when it is not UTF-8), so `JSONImport` into an empty vault
    /// writes every note back byte for byte.
    public static func json(_ vault: Vault, options: ExportOptions) throws -> ExportReport {
        let session = try VaultSession(vault: vault, environment: options.environment)
        let paths = session.catalog.recordHeads.map(\.path)
        let attachments = try session.attachmentPaths()
        var text = "["
        for (index, path) in paths.enumerated() {
            let data = try vault.readData(path)
            text += (index == 0 ? "\n" : ",\n") + entry(path: path, data: data, timeZone: options.timeZone).rendered(.compact)
        }
        text += paths.isEmpty ? "]\n" : "\n]\n"
        return ExportReport(data: Data(text.utf8), notes: paths.count, attachments: attachments)
    }

    /// Copies the attachments at vault paths `paths` into `folder`, each at its vault path
    /// (`quire import FOLDER --from plain` brings them back). The folder is created; a file
    /// already there is replaced. Returns how many were copied.
    public static func copyAttachments(_ paths: [String], of vault: Vault, to folder: URL) throws -> Int {
        for path in paths {
            let target = folder.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                let data = try Data(contentsOf: vault.url(for: path))
                try AtomicFile.write(data, to: target, displayPath: path)
            } catch let error as CoreError {
                throw error
            } catch {
                throw CoreError.writeFailed(path: target.path, reason: error.localizedDescription)
            }
        }
        return paths.count
    }

    /// One note's object.
    static func entry(path: String, data: Data, timeZone: TimeZone) -> JSON {
        let note = NoteParser.parse(data, path: path, timeZone: timeZone)
        let date = { (value: Date?, source: DateSource?) -> JSON in
            note.iso8601(value, from: source, timeZone: timeZone).map { .string($0) } ?? .null
        }
        var pairs: [(String, JSON)] = [
            ("path", .string(path)),
            ("id", note.id.map { .string($0) } ?? .null),
            ("title", .string(note.title)),
            ("createdAt", date(note.createdAt, note.createdAtSource)),
            ("updatedAt", date(note.updatedAt, note.updatedAtSource)),
            ("tags", .array(note.tags.map { .string($0) })),
            ("project", note.project.map { .string($0) } ?? .null),
            ("mood", note.mood.map { .int($0) } ?? .null),
            ("draft", .bool(note.draft)),
            ("frontMatter", .object(note.frontMatter.map { ($0.key, $0.value.json { $1 }) })),  // dates as written
            ("body", .string(note.body)),
        ]
        if let text = String(validatingUTF8Data: data) {
            pairs.append(("content", .string(text)))
        } else {
            pairs.append(("contentBase64", .string(data.base64EncodedString())))
        }
        return .object(pairs)
    }
}

extension String {
    /// The text of `data` when it is valid UTF-8 (no replacement characters), else nil.
    init?(validatingUTF8Data data: Data) {
        guard let text = String(data: data, encoding: .utf8), Data(text.utf8) == data else { return nil }
        self = text
    }
}
