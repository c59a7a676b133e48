import Foundation
import QuireCore
import QuireGit

/// Registers quire's resolver as git's merge driver for notes, so a plain `git pull` merges note
/// contents the way `quire sync` does: `merge.quire.driver` in `.git/config` (absolute path of this
/// binary) and `*.md merge=quire` in `.gitattributes`.
public enum MergeDriverRegistration {
    /// The `.gitattributes` line that routes notes to the driver.
    public static let attributeLine = "*.md merge=quire"

    /// Writes the driver into the repository's config and the attribute line into `.gitattributes`
    /// (once). `binary` is the absolute path of the `quire` git runs; nil: the running program.
    public static func register(repository: Repository, vault: Vault, binary: String? = nil) throws {
        let binary = binary ?? executablePath()
        try repository.setConfigString("merge.quire.name", "quire note merge (front matter key by key, newest updatedAt wins)")
        try repository.setConfigString("merge.quire.driver", "\(shellQuoted(binary)) merge-driver %O %A %B %P")
        let attributes = vault.root.appendingPathComponent(".gitattributes")
        var text = (try? String(contentsOf: attributes, encoding: .utf8)) ?? ""
        // By lines of either ending: a CRLF checkout (`core.autocrlf`) has the line too (as a
        // `Character`, "\r\n" is no "\n": the line went unseen and a second one was added).
        guard !text.split(whereSeparator: \.isNewline).contains(where: { $0.trimmingCharacters(in: .whitespaces) == attributeLine }) else {
            return
        }
        let ending = text.contains("\r\n") ? "\r\n" : "\n"
        if !text.isEmpty && !(text.last?.isNewline ?? false) { text += ending }
        text += attributeLine + ending
        try vault.write(Data(text.utf8), to: ".gitattributes")
    }

    /// The absolute path of the running `quire` binary.
    public static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first ?? "quire"
    }

    /// `text` quoted for a POSIX shell (unquoted when it is plain).
    public static func shellQuoted(_ text: String) -> String {
        if text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
