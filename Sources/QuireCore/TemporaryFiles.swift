import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where atomic writes keep their temporary files, and how leftovers are told apart and removed.
///
/// A vault's temporaries live in `.quire/local/tmp/` (ignored by the vault's `.gitignore`, and
/// excluded from every sync commit whatever `.gitignore` says), on the vault's file system so
/// that renaming one over its target is atomic. Only where a folder of the vault is on another
/// file system is a temporary written beside its target; its name then starts with `prefix`,
/// which the sync never commits either. Every name carries the writer's process id: a file
/// whose writer is gone is a leftover (of a crash or a kill) and may be removed.
public enum TemporaryFiles {
    /// The vault-relative folder holding a vault's temporary files.
    public static let folder = ".quire/local/tmp"
    /// The name of every temporary file starts with this (`.quire-tmp-<pid>-<random>`).
    public static let prefix = ".quire-tmp-"

    /// A fresh temporary file name for this process.
    static func freshName() -> String {
        "\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Whether a vault-relative path is a temporary file: inside `folder`, or named with `prefix`.
    public static func isTemporary(_ path: String) -> Bool {
        if path.hasPrefix(folder + "/") { return true }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix(prefix)
    }

    /// Whether the process that wrote the temporary file `name` is gone (its id, in the name, names
    /// no running process); a name without a process id counts as gone.
    public static func writerIsGone(_ name: String) -> Bool {
        guard name.hasPrefix(prefix) else { return true }
        let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
        guard let pid = pid_t(digits), pid > 0 else { return true }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the leftovers in the vault's temporary folder (files whose writer is gone), and
    /// returns their vault-relative paths, sorted. Best effort: a file that cannot be removed is
    /// reported by `quire check` and tried again next time.
    @discardableResult
    public static func removeLeftovers(vaultRoot: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: vaultRoot.path + "/" + folder)) ?? []
        var removed: [String] = []
        for name in names.sorted() where writerIsGone(name) {
            if unlink(vaultRoot.path + "/" + folder + "/" + name) == 0 { removed.append(folder + "/" + name) }
        }
        return removed
    }

    /// Every temporary file in the vault whose writer is gone: in the temporary folder, and
    /// anywhere in the work tree by name (outside `.git`; symlinks are not followed), sorted.
    public static func strays(vaultRoot: URL) -> [String] {
        var found: [String] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: vaultRoot.path + "/" + folder)) ?? []
        for name in names where writerIsGone(name) { found.append(folder + "/" + name) }
        collect(in: vaultRoot.path, relative: "", into: &found)
        return found.sorted()
    }

    private static func collect(in directory: String, relative: String, into found: inout [String]) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        var folders: [(name: String, path: String)] = []
        while let item = readdir(stream) {
            let name = DirectoryEntryName.with(item) { String(decoding: $0, as: UTF8.self) }
            if name == "." || name == ".." || (relative.isEmpty && name == ".git") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var kind = item.pointee.d_type
            if kind == UInt8(DT_UNKNOWN) {
                var status = stat()
                guard lstat(directory + "/" + name, &status) == 0 else { continue }
                kind = status.st_mode & S_IFMT == S_IFDIR ? UInt8(DT_DIR) : UInt8(DT_REG)
            }
            if kind == UInt8(DT_DIR) {
                if path != folder { folders.append((name, path)) }
            } else if name.hasPrefix(prefix), writerIsGone(name) {
                found.append(path)
            }
        }
        for child in folders { collect(in: directory + "/" + child.name, relative: child.path, into: &found) }
    }
}
