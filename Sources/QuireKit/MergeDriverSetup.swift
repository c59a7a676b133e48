import Foundation
import QuireCore
import QuireGit

/// Registers quire's resolver as git's merge driver for notes, so a plain `git pull` merges note
/// contents the way `quire sync` does: `merge.quire.driver` in `.git/config` (the command
/// `quire merge-driver %O %A %B %P`, by the absolute path of the quire binary) and
/// `*.md merge=quire` in `.gitattributes`. `quire init` and `quire clone` call it.
enum MergeDriverSetup {
    static let attributeLine = "*.md merge=quire"

    /// Registers `binary` (an absolute path) as the driver in `vault`'s repository.
    static func register(repository: Repository, vault: Vault, binary: String) throws {
        try repository.setConfigString("merge.quire.name", "quire note merge (front matter key by key, newest updatedAt wins)")
        try repository.setConfigString("merge.quire.driver", "\(shellQuoted(binary)) merge-driver %O %A %B %P")
        let attributes = vault.root.appendingPathComponent(".gitattributes")
        var text = (try? String(contentsOf: attributes, encoding: .utf8)) ?? ""
        guard !text.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces) == attributeLine }) else {
            return
        }
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += attributeLine + "\n"
        try vault.write(Data(text.utf8), to: ".gitattributes")
    }

    /// The absolute path of the running program (the `quire` binary).
    static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first ?? "quire"
    }

    static func shellQuoted(_ text: String) -> String {
        if text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
