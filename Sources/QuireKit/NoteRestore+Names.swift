import Foundation
import QuireCore
import QuireGit

extension NoteRestore {
    /// The paths of the deleted notes that `name` names — by their title, an alias or their file
    /// name, compared as a link compares names (`LinkResolver.key`) — for `quire restore TITLE`:
    /// a deleted note is in no catalog any more, so its name is read from its last version. Looked
    /// for where `run` restores from: the trash (a note removed before it was ever committed), the
    /// last commit (removed since), and the history (deleted in a commit); each path once, in that
    /// order, the newest deletion first.
    public static func deletedNotes(named name: String, vault: Vault) throws -> [String] {
        let wanted = LinkResolver.key(name.hasSuffix(".md") ? String(name.dropLast(3)) : name)
        var found: [String] = []
        var seen = Set<ExactPath>()
        func consider(_ path: String, _ data: () throws -> Data?) rethrows {
            guard seen.insert(ExactPath(path)).inserted,
                  !FileManager.default.fileExists(atPath: vault.url(for: path).path),
                  let data = try data() else { return }
            let note = NoteParser.parseFrontMatter(data, path: path)
            let stem = String((path.split(separator: "/").last ?? Substring(path)).dropLast(3))
            if ([note.title, stem] + note.aliases).contains(where: { LinkResolver.key($0) == wanted }) { found.append(path) }
        }
        for (path, copy) in trashedNotes(vault: vault) {
            consider(path) { try? Data(contentsOf: vault.url(for: copy)) }
        }
        let history = try VaultHistory(vault: vault)
        if let head = try history.repository.headCommitID() {
            for entry in try history.repository.status() where entry.kind == .deleted && entry.inWorkTree
                && entry.path.hasSuffix(".md") {
                try consider(entry.path) { try history.history.version(of: entry.path, in: head) }
            }
        }
        for deleted in try history.history.deletedNotes() {
            try consider(deleted.path) { try history.history.version(of: deleted.path, in: deleted.lastCommit) }
        }
        return found
    }

    /// The notes in `.quire/local/trash/<stamp>/`, newest folder first: each note's path in the
    /// vault and its copy's path (both vault-relative).
    static func trashedNotes(vault: Vault) -> [(path: String, copy: String)] {
        let trash = vault.url(for: ".quire/local/trash")
        let stamps = (try? FileManager.default.contentsOfDirectory(atPath: trash.path)) ?? []
        var notes: [(path: String, copy: String)] = []
        for stamp in stamps.sorted(by: { TrashStamp.isOlder($1, $0) }) {
            let folder = trash.appendingPathComponent(stamp)
            guard let walk = FileManager.default.enumerator(atPath: folder.path) else { continue }
            while let relative = walk.nextObject() as? String {
                guard relative.hasSuffix(".md") else { continue }
                notes.append((relative, ".quire/local/trash/\(stamp)/\(relative)"))
            }
        }
        return notes
    }
}
