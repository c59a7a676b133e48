import Foundation
import QuireCore
import QuireKit
#if canImport(Glibc)
import Glibc
#endif

/// Applies one change to a note file: read, change, stamp `updatedAt` when the content really
/// changed (unless the change set `updatedAt` itself), write atomically. Untouched files are
/// never rewritten, and a write-protected note (`chmod 444`) only with `force`.
enum NoteEditor {
    /// Returns whether the file changed.
    @discardableResult
    static func apply(vault: Vault, path: String, now: Date, setsUpdatedAt: Bool = false, force: Bool,
                      _ change: (inout NoteDocument) throws -> Void) throws -> Bool {
        do {
            // A sync (the daemon's) may update the note while this edits it: the file is replaced
            // only if it still holds what was read, else the change is made again on what is there.
            for attempt in 1...5 {
                let read = try? Data(contentsOf: vault.url(for: path))
                var document = try vault.readDocument(path: path)
                let before = document.serialized()
                try change(&document)
                guard document.serialized() != before else { return false }
                if !force { try refuseWriteProtected(vault: vault, path: path) }
                if !setsUpdatedAt { try document.setUpdatedAt(now) }
                // Test hook (`FaultInjection`, Docs/sync.md): a sync's write lands here.
                if attempt == 1, FaultInjection().trigger("before-note-write") {
                    throw CLIError("injected fault at before-note-write (QUIRE_FAULT)", hint: "unset QUIRE_FAULT")
                }
                let refused = try vault.writeAll([(path, document.serialized())], replaceIf: { _ in
                    read != nil && (try? Data(contentsOf: vault.url(for: path))) == read
                })
                if refused.isEmpty { return true }
            }
            throw CLIError("the note kept changing while quire edited it (\(path))", hint: "try again; the note is as the last writer left it")
        } catch CoreError.unreadableFrontMatter(let line, let reason) {
            let at = line.map { ":\($0)" } ?? ""
            throw CLIError("front matter is unreadable, the note is left as it is (\(path)\(at): \(reason))",
                           hint: "fix the front matter in an editor ('quire check' lists every problem)")
        } catch CoreError.readOnlyFrontMatter(let format) {
            throw CLIError("\(format.rawValue) front matter is read-only (\(path))",
                           hint: "quire edits YAML front matter only; edit this note in an editor")
        }
    }

    /// Throws when the note is write-protected: its owner made it read-only on purpose.
    static func refuseWriteProtected(vault: Vault, path: String) throws {
        guard try vault.isWriteProtected(path) else { return }
        throw KitError.writeProtected(path: path)
    }

    /// The `--force` option of the commands that change a note.
    static let forceOption = OptionSpec.flag("--force", help: "Change the note even when it is read-only.")
}

/// Reads `key=value` values typed as YAML would (`draft=false` a bool, `mood=4` an int,
/// `tags=[a, b]` a list), with the canonical coercions (`title` is always a string).
enum ValueParser {
    static func parse(key: String, text: String) throws -> FrontMatterValue {
        if key == "title" || key == "project" || key == "color" { return .string(text) }
        let probe = "---\nvalue: \(text)\n---\n"
        let note = NoteParser.parse(Data(probe.utf8), path: "value.md")
        guard note.problems.isEmpty, let value = note.value(forKey: "value") else {
            throw CLIError.usage("cannot read the value of '\(key)' (\(text))",
                                 hint: "quote text that YAML would misread, e.g. \(key)='\"\(text)\"'")
        }
        // `x=#hash` and `x=it's # 1` would read as YAML comments, losing text: unquoted text with
        // a comment mark stays text, whole.
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !"\"'[{".contains(trimmed.first ?? "\""), trimmed.hasPrefix("#") || trimmed.contains(" #") || trimmed.contains("\t#") {
            return try parse(key: key, text: "'" + text.replacingOccurrences(of: "'", with: "''") + "'")
        }
        if key == "tags" || key == "aliases" {
            switch value {
            case .list(let items): return .list(items.map { .string(scalarText($0)) })
            case .null: return .list([])
            default: return .list([.string(scalarText(value))])
            }
        }
        if key == "mood" {
            guard NoteFields.mood(value) != nil else {
                throw CLIError.usage("mood takes \(NoteFields.moodRule), not '\(text)'")
            }
        }
        if key == "draft" || key == "pinned" {
            guard case .bool = value else {
                throw CLIError.usage("\(key) takes true or false, not '\(text)'")
            }
        }
        if key == "createdAt" || key == "updatedAt" {
            guard case .date = value else {
                throw CLIError.usage("\(key) takes a time like 2026-11-29T12:00:00Z, not '\(text)'")
            }
        }
        return value
    }

    /// A scalar's text for string-typed keys.
    static func scalarText(_ value: FrontMatterValue) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .float(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(_, let text): return text
        case .null: return ""
        case .list(let items): return items.map(scalarText).joined(separator: ", ")
        case .map: return ""
        }
    }
}
