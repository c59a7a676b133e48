import Foundation
import QuireCore

/// Which recorded conflicts still hold text that only history has — what `quire status` counts as
/// "dropped text". A conflict is settled when its losing version is back in the work tree: the
/// note at its path holds it (`quire restore NOTE --conflict ID`, which only re-stamps
/// `updatedAt`), or a `keep-both` copy beside it does (`<name>.conflict-<device>-<time>.md`, the
/// loser with a new `id`, `conflictOf` and a title naming its origin). Versions are compared
/// without `id`, `conflictOf` and the `updatedAt` keys, and a copy also without `title`. A
/// decision that dropped words in a few places (`ConflictRecord.lost`) is settled too once every
/// one of those places' words is in the note again (put back by hand). A conflict whose loser
/// deleted the note (no text) stays open.
public enum ConflictAttention {
    /// The records of `log` whose losing text is not in the work tree of the vault at `vaultRoot`.
    public static func open(_ records: [ConflictRecord], log: ConflictLog, vaultRoot: URL) throws -> [ConflictRecord] {
        try records.filter { record in
            if let lost = record.lost, hasWordsBack(lost, path: record.path, vaultRoot: vaultRoot) { return false }
            guard let loser = try log.losingVersion(of: record) else { return true }
            return !candidates(for: record.path, vaultRoot: vaultRoot).contains { path in
                guard let data = FileManager.default.contents(atPath: vaultRoot.path + "/" + path) else { return false }
                let copy = path != record.path
                return comparable(data, copy: copy) == comparable(loser, copy: copy)
            }
        }
    }

    /// Whether the note at `path` holds again the words of every place of `lost` (`line 14: …`).
    static func hasWordsBack(_ lost: String, path: String, vaultRoot: URL) -> Bool {
        guard let data = FileManager.default.contents(atPath: vaultRoot.path + "/" + path) else { return false }
        let text = String(decoding: data, as: UTF8.self)
        let places = lost.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("line "), let colon = line.range(of: ": ") else { return nil }
            return String(line[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        return !places.isEmpty && places.allSatisfy { $0.isEmpty || text.contains($0) }
    }

    /// The note's own path and the keep-both copies beside it, vault-relative.
    static func candidates(for path: String, vaultRoot: URL) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let stem = name.hasSuffix(".md") ? String(name.dropLast(3)) : name
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? vaultRoot.path : vaultRoot.path + "/" + folder)) ?? []
        let copies = names.filter { $0.hasPrefix(stem + ".conflict-") }.sorted()
        return [path] + copies.map { folder.isEmpty ? $0 : folder + "/" + $0 }
    }

    /// The bytes without the keys a restore or a keep-both copy changes; the bytes themselves
    /// when the front matter cannot be edited.
    static func comparable(_ data: Data, copy: Bool = false) -> Data {
        var document = NoteDocument(data: data)
        guard document.format == .yaml, document.isEditable else { return data }
        let ignored = Set((["id", "conflictOf"] + (copy ? ["title"] : []) + NoteFields.updatedAtKeys).map { $0.lowercased() })
        do {
            for key in document.keys where ignored.contains(key.lowercased()) { try document.remove(key) }
        } catch {
            return data
        }
        return document.serialized()
    }
}
