import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// `quire import DIR --from TOOL`: another tool's folder copied into the vault with its layout
/// kept (relative links and attachments keep working; Dendron's dotted names stay), each note's
/// date and tag keys mapped to quire's canonical ones surgically (every other key and the body
/// kept byte for byte), files' modification times kept (quire's dates for notes without any).
/// Idempotent like the JSON import: a file already in the vault with the same bytes, or a note
/// whose id is there, is skipped. See Docs/format.md, "Importing folders".
public enum FolderImport {
    /// The tools whose folders quire reads.
    public enum Tool: String, CaseIterable, Sendable {
        case obsidian, dendron, jekyll, hugo, nb, zk, joplin, plain

        /// How the tool's keys map to quire's.
        var mapping: FrontMatterMapping {
            switch self {
            case .obsidian:
                return FrontMatterMapping(createdKeys: ["created", "date", "creation date"],
                                          updatedKeys: ["modified", "updated", "last modified"],
                                          tagKeys: ["tag"], renames: [("alias", "aliases")])
            case .dendron:
                return FrontMatterMapping(createdKeys: ["created"], updatedKeys: ["updated"])
            case .jekyll:
                return FrontMatterMapping(createdKeys: ["date"], updatedKeys: ["last_modified_at"],
                                          tagKeys: ["tag", "categories", "category"])
            case .hugo:
                return FrontMatterMapping(createdKeys: ["date"], updatedKeys: ["lastmod"],
                                          tagKeys: ["categories", "keywords"])
            case .zk:
                return FrontMatterMapping(createdKeys: ["date", "created"], updatedKeys: ["modified", "updated"],
                                          tagKeys: ["keywords"])
            case .joplin:
                return FrontMatterMapping(createdKeys: ["created"], updatedKeys: ["updated"])
            case .nb, .plain:
                return FrontMatterMapping()
            }
        }

        /// Folders the tool generates or keeps its own state in (besides hidden ones).
        var skippedFolders: Set<String> {
            switch self {
            case .jekyll: return ["_site", ".jekyll-cache", "node_modules"]
            case .hugo: return ["public", "resources", "node_modules"]
            default: return []
            }
        }
    }

    /// What a folder import needs besides the folder.
    public struct Options: Sendable {
        /// The tool that wrote the folder.
        public var tool: Tool
        /// The vault folder to import into (`""` = the root).
        public var folder: String
        /// The zone naive dates are read in and dates are written in.
        public var timeZone: TimeZone
        /// The process environment (for the catalog).
        public var environment: [String: String]

        /// Options for importing a `tool` folder into `folder`; `now` is unused by the mapping
        /// itself and kept for symmetry with the JSON import.
        public init(tool: Tool, folder: String = "", now: Date, timeZone: TimeZone = .current,
                    environment: [String: String] = [:]) {
            self.tool = tool
            self.folder = folder
            self.timeZone = timeZone
            self.environment = environment
        }
    }

    /// Imports the folder at `source` into `vault` (for Joplin, also a JEX archive: `JoplinImport`).
    public static func run(from source: URL, into vault: Vault, options: Options,
                           progress: ImportProgress? = nil) throws -> ImportReport {
        try vault.requireWritableFormat()
        var isFolder: ObjCBool = false
        if options.tool == .joplin, FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder), !isFolder.boolValue {
            return try JoplinImport.archive(source, into: vault, options: options, progress: progress)
        }
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ImportError.notAFolder(path: source.path)
        }
        let root = source.resolvingSymlinksInPath()
        guard !ExactPath.isWithin(vault.root.path, root.path) && !ExactPath.isWithin(root.path, vault.root.path) else {
            throw ImportError.unreadable(path: source.path, line: nil, reason: "the folder and the vault overlap")
        }
        let files = try walk(root, skipping: options.tool.skippedFolders)
        let folder = try NotePath.folder(options.folder, in: vault)
        var writer = ImportWriter(vault: vault, existingIDs: try JSONImport.existingIDs(vault, environment: options.environment),
                                  total: files.count, progress: progress)
        var kept: [Int: [KeptValue]] = [:]
        for (index, file) in files.enumerated() {
            let target = folder.isEmpty ? file.path : folder + "/" + file.path
            do {
                guard !file.invalidName else { throw ImportEntryError("its name is not valid UTF-8: rename it and import again") }
                guard !file.isLink else { throw ImportEntryError("a symbolic link is not followed") }
                let safe = try vault.resolveSafePath(target)
                let data: Data
                do {
                    data = try Data(contentsOf: root.appendingPathComponent(file.path))
                } catch {
                    throw ImportEntryError("cannot read the file")
                }
                if file.path.hasSuffix(".md") {
                    let (mapped, id, keptValues) = note(data, path: file.path, target: safe, options: options)
                    kept[index] = keptValues
                    try writer.add(index: index, path: safe, id: id, data: mapped, source: file.path, modified: file.modified)
                } else {
                    try copyAttachment(data, to: safe, source: file.path, modified: file.modified, writer: &writer)
                }
            } catch let error as ImportEntryError {
                writer.fail(index, error.description, source: file.path)
            } catch let error as CoreError {
                writer.fail(index, error.description, source: file.path)
            }
        }
        var report = try writer.finish()
        report.kept = report.imported.flatMap { kept[$0.index] ?? [] }
        return report
    }

    /// The note's bytes with the tool's keys mapped (unchanged when its front matter is not
    /// editable YAML, or an edit is refused), its id, and the values left where they were
    /// because they do not map losslessly (`path`: in the folder; `target`: in the vault).
    static func note(_ data: Data, path: String, target: String, options: Options) -> (Data, String?, [KeptValue]) {
        let name = (path as NSString).lastPathComponent
        var document = NoteDocument(data: data, timeZone: options.timeZone)
        var kept: [KeptValue] = []
        if document.format == .yaml, document.isEditable {
            var edited = document
            do {
                let keptValues = try options.tool.mapping.apply(to: &edited, path: target)
                if options.tool == .joplin { try JoplinImport.mapToDo(&edited, path: path) }
                if options.tool == .jekyll, !edited.keys.contains("createdAt"), let date = jekyllDate(name, options.timeZone) {
                    try edited.set("createdAt", .timestamp(date, timeZone: options.timeZone))
                }
                document = edited
                kept = keptValues
            } catch {
                // An edit the surgical writer refuses: the note is copied exactly as it was.
            }
        }
        return (document.serialized(), document.note(path: name).id, kept)
    }

    /// The date of a Jekyll post's file name (`2024-01-05-title.md`), at midnight local time.
    static func jekyllDate(_ name: String, _ timeZone: TimeZone) -> Date? {
        let parts = name.split(separator: "-", maxSplits: 3).map(String.init)
        guard parts.count == 4, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    private static func copyAttachment(_ data: Data, to path: String, source: String, modified: Date?,
                                       writer: inout ImportWriter) throws {
        let url = writer.vault.url(for: path)
        if FileManager.default.fileExists(atPath: url.path) {
            guard (try? Data(contentsOf: url)) == data else {
                throw ImportEntryError("a different file is already at \(path)")
            }
            writer.attachment(nil)
            return
        }
        try writer.vault.write(data, to: path)
        writer.keepTime(modified, of: path)
        writer.attachment(ImportReport.Copied(source: source, path: path))
    }

    /// One file of the walk: its path relative to the folder, its modification time.
    struct SourceFile {
        var path: String
        var modified: Date?
        var isLink: Bool
        /// Its name is not valid UTF-8 (`path` shows the bad bytes as `\xE9`): it cannot be imported.
        var invalidName = false
    }

    /// Every file below `root` but hidden ones and those in hidden or `skipping` folders,
    /// sorted by path (bytes).
    static func walk(_ root: URL, skipping: Set<String>) throws -> [SourceFile] {
        var files: [SourceFile] = []
        var folders = [""]
        while let folder = folders.popLast() {
            let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
            let (names, invalid) = try listing(url)
            for name in invalid {
                files.append(SourceFile(path: folder.isEmpty ? name : folder + "/" + name, modified: nil, isLink: false,
                                        invalidName: true))
            }
            for name in names where !Vault.isHidden(name: name) {
                let path = folder.isEmpty ? name : folder + "/" + name
                let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)
                let type = attributes?[.type] as? FileAttributeType
                if type == .typeDirectory {
                    if !skipping.contains(name) || !folder.isEmpty { folders.append(path) }
                } else if type == .typeRegular || type == .typeSymbolicLink {
                    files.append(SourceFile(path: path, modified: attributes?[.modificationDate] as? Date,
                                            isLink: type == .typeSymbolicLink))
                }
            }
        }
        return files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }

    /// The names in `folder` by their bytes (`FileManager` leaves out a name that is not
    /// UTF-8): the valid ones, and the others shown with their bad bytes escaped (not hidden).
    static func listing(_ folder: URL) throws -> (names: [String], invalid: [String]) {
        guard let directory = opendir(folder.path) else {
            throw ImportError.unreadable(path: folder.path, line: nil, reason: "the folder cannot be listed")
        }
        defer { closedir(directory) }
        var names: [String] = [], invalid: [String] = []
        while let entry = readdir(directory) {
            let bytes = DirectoryEntryName.with(entry) { Array($0) }
            guard !bytes.isEmpty, bytes[0] != UInt8(ascii: ".") else { continue }
            if let name = String(validating: bytes, as: UTF8.self) { names.append(name) } else { invalid.append(FileNameText.shown(bytes)) }
        }
        return (names, invalid)
    }
}
