import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads many files of a vault by their vault paths (a catalog's: already normalized) with
/// plain `open` and `read`, from several threads at once, under `Vault.resolveSafePath`'s rule:
/// a symlink is followed only when it leads inside the vault and outside its hidden folders.
/// Each folder of the paths is checked once, when the reader is made; a file is opened without
/// following a symlink, and one that is a symlink is read the checked way (`Vault.readData`).
struct VaultFileReader: Sendable {
    private let vault: Vault
    private let root: String
    /// The folders whose every part passed the check (by their bytes).
    private let safeFolders: Set<ExactPath>

    /// A reader of `paths` in `vault`: the folders that hold them are checked here.
    init(vault: Vault, paths: [String]) {
        self.vault = vault
        root = vault.root.path
        var folders = Set<ExactPath>()
        var safe = Set<ExactPath>()
        for path in paths {
            let folder = ExactPath(Self.folder(of: path))
            guard folders.insert(folder).inserted else { continue }
            if folder.string.isEmpty || (try? vault.resolveSafePath(folder.string)) == folder.string { safe.insert(folder) }
        }
        safeFolders = safe
    }

    /// The bytes of the file at `path`; throws what `Vault.readData` throws (`CoreError`).
    /// Safe to call from several threads at once.
    func read(_ path: String) throws -> [UInt8] {
        guard safeFolders.contains(ExactPath(Self.folder(of: path))), !path.isEmpty, !path.hasPrefix("/") else {
            return Array(try vault.readData(path))
        }
        let descriptor = open(root + "/" + path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let code = errno
            // A symlink (or a name the check would refuse): the checked way decides.
            if code == ELOOP || code == ENOENT { return Array(try vault.readData(path)) }
            throw CoreError.readFailed(path: path, reason: "permission denied or unreadable")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CoreError.readFailed(path: path, reason: "permission denied or unreadable")
        }
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4_096, bytes.count / 2))) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw CoreError.readFailed(path: path, reason: "permission denied or unreadable") }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The folder part of a vault path (`""` at the root).
    private static func folder(of path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
    }
}
