import Foundation
import QuireCore

/// What `quire import --from joplin` adds to a folder import: Joplin's Markdown + Front Matter
/// export has its to-dos (`completed?: yes|no`, `due`) and no ids; a JEX archive is first turned
/// into such a folder (`JoplinArchive`) in a temporary folder, then imported from there.
enum JoplinImport {
    /// A note of a Markdown + Front Matter export in quire's terms, surgically: `completed?`
    /// becomes `completed: true|false` with `todo: true` after it; `due` is written as ISO 8601;
    /// a note without an `id` gets one derived from its path in the export (importing the same
    /// export again finds it). Idempotent.
    static func mapToDo(_ document: inout NoteDocument, path: String) throws {
        if document.keys.contains("completed?"), !document.keys.contains("completed") {
            let done = document.value(forKey: "completed?").map { value -> Bool in
                switch value {
                case .bool(let flag): return flag
                case .string(let text): return ["yes", "true", "y", "1"].contains(text.lowercased())
                default: return false
                }
            } ?? false
            try document.renameKey("completed?", to: "completed")
            try document.set("completed", .bool(done))
            if !document.keys.contains("todo") { try document.set("todo", .bool(true)) }
        }
        if document.keys.contains("due"), let value = document.value(forKey: "due"),
           case .string = value, let date = NoteFields.date(from: value, timeZone: document.timeZone) {
            try document.set("due", .timestamp(date, timeZone: document.timeZone))
        }
        if !document.keys.contains("id") {
            try document.set("id", .string(FrontMatterMapping.derivedID("joplin:" + path)))
        }
    }

    /// Imports the JEX archive at `source`: its notes, notebooks, tags and resources as a
    /// Markdown folder written to a temporary folder (removed after), then `FolderImport.run`.
    static func archive(_ source: URL, into vault: Vault, options: FolderImport.Options,
                        progress: ImportProgress?) throws -> ImportReport {
        let data: Data
        do {
            data = try Data(contentsOf: source)
        } catch {
            throw ImportError.unreadable(path: source.path, line: nil, reason: "cannot read the file")
        }
        let folder: JoplinArchive
        do {
            folder = try JoplinArchive(data, timeZone: options.timeZone)
        } catch let problem as TarArchive.Problem {
            throw ImportError.unreadable(path: source.path, line: nil,
                                         reason: "\(problem); --from joplin takes the folder of a Markdown export or a .jex file")
        }
        guard !folder.files.isEmpty else {
            throw ImportError.unreadable(path: source.path, line: nil, reason: "it holds no Joplin note, notebook or resource")
        }
        let staging = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-joplin-\(UUID().uuidString.prefix(8))", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        do {
            for file in folder.files {
                let url = staging.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.data.write(to: url)
                if let modified = file.modified {
                    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
                }
            }
        } catch {
            throw ImportError.unreadable(path: source.path, line: nil,
                                         reason: "cannot unpack it into \(staging.path): \(error.localizedDescription)")
        }
        return try FolderImport.run(from: staging, into: vault, options: options, progress: progress)
    }
}
