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
    ///
    /// Reads folders with `readdir` and trusts its entry types, so a regular file costs no
    /// `stat`; only symlinks (and file systems without entry types) are looked at more closely.
    func walk() throws -> (notes: [String], folders: [String]) {
        var notes: [String] = []
        var folders: [String] = []
        var visited: Set<String> = [realRoot]
        var pending: [(real: String, relative: String)] = [(realRoot, "")]
        while let (real, relative) = pending.popLast() {
            guard let directory = opendir(real) else {
                // An unreadable subfolder is listed but not entered; only the root is fatal.
                if !relative.isEmpty { continue }
                throw CoreError.readFailed(path: ".", reason: "cannot list the folder")
            }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                guard !name.hasPrefix(".") else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var target = real + "/" + name
                var kind: mode_t
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): kind = S_IFREG
                case Int32(DT_DIR): kind = S_IFDIR
                default:
                    var status = stat()
                    guard lstat(target, &status) == 0 else { continue }
                    kind = status.st_mode & S_IFMT
                    if kind == S_IFLNK {
                        // Followed only when it leads inside the vault; its real path guards loops.
                        guard let resolved = Vault.realPath(target), Vault.isInside(resolved, root: realRoot),
                              stat(resolved, &status) == 0 else { continue }
                        target = resolved
                        kind = status.st_mode & S_IFMT
                    }
                }
                if kind == S_IFDIR {
                    if ignore?(path, true) == true || !visited.insert(target).inserted { continue }
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
