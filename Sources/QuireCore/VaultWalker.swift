import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lists the notes (`*.md`) and folders of a vault: hidden entries (`.git`, `.quire`, any
/// name starting with `.`) are skipped; symlinks are followed only when they lead inside the
/// vault, and each real folder is visited once, so symlink loops end. A subfolder that cannot
/// be listed (no permission) is listed among the folders but its content is skipped.
struct VaultWalker {
    /// The vault root with symlinks resolved.
    let realRoot: String
    /// Called with a vault-relative path and whether it is a folder; true skips it.
    let ignore: ((String, Bool) -> Bool)?

    /// Vault-relative note paths and folder paths, each sorted.
    func walk() throws -> (notes: [String], folders: [String]) {
        var notes: [String] = []
        var folders: [String] = []
        var visited: Set<String> = [realRoot]
        var pending: [(real: String, relative: String)] = [(realRoot, "")]
        while let (real, relative) = pending.popLast() {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: real)
            } catch {
                // An unreadable subfolder is listed but not entered; only the root is fatal.
                if !relative.isEmpty { continue }
                throw CoreError.readFailed(path: ".", reason: "cannot list the folder")
            }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(real + "/" + name, &status) == 0 else { continue }
                var target = real + "/" + name
                if status.st_mode & S_IFMT == S_IFLNK {
                    guard let resolved = Vault.realPath(target), Vault.isInside(resolved, root: realRoot),
                          stat(resolved, &status) == 0 else { continue }
                    target = resolved
                }
                let kind = status.st_mode & S_IFMT
                if kind == S_IFDIR {
                    if ignore?(path, true) == true || !visited.insert(Vault.realPath(target) ?? target).inserted {
                        continue
                    }
                    folders.append(path)
                    pending.append((target, path))
                } else if kind == S_IFREG, name.lowercased().hasSuffix(".md"), ignore?(path, false) != true {
                    notes.append(path)
                }
            }
        }
        return (notes.sorted(), folders.sorted())
    }
}
