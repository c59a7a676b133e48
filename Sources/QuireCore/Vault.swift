import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A notes vault: a directory holding `.quire/` that is the root of its git work tree.
/// Paths given to and returned by a vault are relative to its root and `/`-separated.
public struct Vault: Sendable, Equatable {
    /// The root folder (symlinks resolved).
    public let root: URL

    /// Opens the vault at `path` (`--vault PATH`, `QUIRE_VAULT`): it must be a directory holding
    /// `.quire/`, and not a subfolder of another git work tree.
    public init(at path: URL) throws {
        guard let real = Vault.realPath(path.path), Vault.isDirectory(real) else {
            throw CoreError.notADirectory(path: path.path)
        }
        guard Vault.isDirectory(real + "/.quire") else { throw CoreError.vaultNotFound(start: path.path) }
        try Vault.checkWorkTreeRoot(real)
        root = URL(fileURLWithPath: real, isDirectory: true)
    }

    /// Finds the vault: `QUIRE_VAULT` when set (relative to `startingAt`), else the nearest
    /// directory holding `.quire/` from `startingAt` upward.
    public static func locate(startingAt start: URL,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Vault {
        if let explicit = environment["QUIRE_VAULT"], !explicit.isEmpty {
            return try Vault(at: URL(fileURLWithPath: explicit, relativeTo: start).standardizedFileURL)
        }
        guard var directory = realPath(start.path) else { throw CoreError.notADirectory(path: start.path) }
        while true {
            if isDirectory(directory + "/.quire") { return try Vault(at: URL(fileURLWithPath: directory)) }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory || parent.isEmpty { throw CoreError.vaultNotFound(start: start.path) }
            directory = parent
        }
    }

    /// Makes `directory` a vault: `.quire/config.yml`, `.quire/local/`, `.quire/cache/` and the
    /// `.gitignore` lines for the last two (existing `.gitignore` content is kept), and in an
    /// Obsidian vault (`.obsidian/` present) those of `obsidianIgnores`. Creating the git
    /// repository is the caller's job.
    public static func create(at directory: URL) throws -> Vault {
        let path = directory.path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CoreError.writeFailed(path: path, reason: "cannot create the folder")
        }
        guard let real = realPath(path), isDirectory(real) else { throw CoreError.notADirectory(path: path) }
        try checkWorkTreeRoot(real)
        do {
            try FileManager.default.createDirectory(atPath: real + "/.quire/local", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: real + "/.quire/cache", withIntermediateDirectories: true)
        } catch {
            throw CoreError.writeFailed(path: ".quire", reason: "cannot create the folder")
        }
        let configURL = URL(fileURLWithPath: real + "/" + VaultConfig.relativePath)
        if !FileManager.default.fileExists(atPath: configURL.path) {
            // Obsidian's habit when `.obsidian/` is there, or when the notes already here are
            // named by their titles (a vault whose `.obsidian/` git ignores).
            let style: FileNameStyle = isDirectory(real + "/.obsidian") ? .title : .detected(in: URL(fileURLWithPath: real))
            try AtomicFile.write(VaultConfig.initial(fileNames: style).serialized(), to: configURL, displayPath: VaultConfig.relativePath,
                                 temporaryFolder: real + "/" + TemporaryFiles.folder)
        }
        let ignoreURL = URL(fileURLWithPath: real + "/.gitignore")
        var existing = ""
        if FileManager.default.fileExists(atPath: ignoreURL.path) {
            do {
                existing = String(decoding: try Data(contentsOf: ignoreURL), as: UTF8.self)
            } catch {
                throw CoreError.readFailed(path: ".gitignore", reason: "unreadable")
            }
        }
        var text = existing
        let lines = Set(existing.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        let wanted = [".quire/local/", ".quire/cache/"] + (isDirectory(real + "/.obsidian") ? obsidianIgnores : [])
        for line in wanted where !lines.contains(line) {
            if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            text += line + "\n"
        }
        if text != existing {
            try AtomicFile.write(Data(text.utf8), to: ignoreURL, displayPath: ".gitignore",
                                 temporaryFolder: real + "/" + TemporaryFiles.folder)
        }
        return try Vault(at: URL(fileURLWithPath: real))
    }

    /// Obsidian's per-device window layout, rewritten whenever a pane moves (two devices would
    /// collide on it at every sync), and its trash folder: ignored in a vault that has `.obsidian/`.
    public static let obsidianIgnores = [".obsidian/workspace*.json", ".trash/"]

    /// The file URL of a vault-relative path (not checked: use `resolveSafePath` first).
    public func url(for path: String) -> URL {
        path.isEmpty ? root : root.appendingPathComponent(path)
    }

    /// Every note path (`*.md` outside `.git`, `.quire` and hidden folders), in `PathOrder`. `ignore`
    /// receives vault-relative paths and whether they are folders; returning true skips them
    /// (plug git's ignore rules in here).
    public func notePaths(ignore: ((String, Bool) -> Bool)? = nil) throws -> [String] {
        try VaultWalker(realRoot: root.path, ignore: ignore).walk().notes
    }

    /// The notes (in `PathOrder`) with their stamps when `stamps` is set, the folders, the
    /// attachments (as `attachmentPaths` lists them) when `attachments` is set, and what the
    /// walk left out (unreadable folders, symlinks leading outside, special files).
    /// `folderListed` is told, for each folder entered and before `ignore` is asked about its
    /// entries, its vault-relative path (`""`: the root) and whether it holds a `.gitignore`.
    /// With `writesBehind`, the walk's folder listings are saved behind the caller's answer
    /// (`WritesBehind`).
    public func listing(stamps: Bool = false, attachments: Bool = false, ignore: ((String, Bool) -> Bool)? = nil,
                        folderListed: ((_ folder: String, _ holdsGitignore: Bool) -> Void)? = nil,
                        writesBehind: Bool = false) throws -> VaultListing {
        var walker = VaultWalker(realRoot: root.path, ignore: ignore, folderListed: folderListed)
        walker.savesBehind = writesBehind
        return try walker.walk(stamps: stamps, attachments: attachments)
    }

    /// Every attachment path (a regular file that is not a note, outside `.git`, `.quire`
    /// and hidden folders, not ignored), in `PathOrder`: what links to files resolve against.
    public func attachmentPaths(ignore: ((String, Bool) -> Bool)? = nil) throws -> [String] {
        try VaultWalker(realRoot: root.path, ignore: ignore).walk(attachments: true).attachments
    }

    /// Every folder below the root (not `""`), sorted, with the same rules as `notePaths`.
    public func folders(ignore: ((String, Bool) -> Bool)? = nil) throws -> [String] {
        try VaultWalker(realRoot: root.path, ignore: ignore).walk().folders
    }

    /// Reads and parses a note (parse problems are in `Note.problems`; only I/O throws).
    public func readNote(path: String) throws -> Note {
        let safe = try resolveSafePath(path)
        return NoteParser.parse(try readData(safe), path: safe)
    }

    /// Loads a note's editable document.
    public func readDocument(path: String) throws -> NoteDocument {
        NoteDocument(data: try readData(try resolveSafePath(path)))
    }

    /// Reads a file's bytes.
    public func readData(_ path: String) throws -> Data {
        let safe = try resolveSafePath(path)
        do {
            return try Data(contentsOf: url(for: safe))
        } catch {
            throw CoreError.readFailed(path: safe, reason: FileManager.default.fileExists(atPath: url(for: safe).path)
                                       ? "permission denied or unreadable" : "no such file")
        }
    }

    /// The vault's format version (`version` in `.quire/config.yml`; 1 when the key or the file
    /// is missing, nil when the file cannot be read).
    public var formatVersion: Int? {
        let path = VaultConfig.relativePath
        guard let data = FileManager.default.contents(atPath: url(for: path).path) else {
            return FileManager.default.fileExists(atPath: url(for: path).path) ? nil : 1
        }
        // The version is a number: reading it needs no local time zone (finding that, on a
        // command's first use, costs more than reading the file).
        return (try? VaultConfig(data: data, path: path, timeZone: Self.utc))?.version
    }

    /// UTC, for reading values that hold no date.
    private static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    /// Throws `CoreError.vaultFormatTooNew` when the vault's format is newer than this code's:
    /// an older quire never writes to a vault a newer one migrated.
    public func requireWritableFormat() throws {
        if let version = formatVersion, version > VaultConfig.currentVersion {
            throw CoreError.vaultFormatTooNew(version: version, supported: VaultConfig.currentVersion)
        }
    }

    /// Writes `data` atomically (temporary file, fsync, rename, fsync of the folder), keeping
    /// the permissions of the file replaced and creating missing folders; refused in a vault
    /// whose format is newer than this code's (`requireWritableFormat`). A symlink inside the
    /// vault is written through to its target, unless `followingLinks` is false: then a link at
    /// `path` is replaced by the file (the sync never writes through a link).
    public func write(_ data: Data, to path: String, followingLinks: Bool = true) throws {
        try requireWritableFormat()
        let safe = try resolveSafePath(path, checkingLastLink: followingLinks)
        var target = url(for: safe)
        if followingLinks, let real = Vault.realPath(target.path), real != target.path { target = URL(fileURLWithPath: real) }
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        } catch {
            throw CoreError.writeFailed(path: safe, reason: "cannot create its folder")
        }
        try AtomicFile.write(data, to: target, displayPath: safe, temporaryFolder: temporaryFolder)
    }

    /// Where atomic writes in this vault keep their temporary files (see `TemporaryFiles`).
    var temporaryFolder: String { root.path + "/" + TemporaryFiles.folder }

    /// Writes many files atomically with a single flush (see `AtomicFile.writeAll`): every file
    /// is either old or new after a crash. Paths are checked like `write(_:to:)`.
    /// `replaceIf` is asked, right before each file is replaced, whether the file (by its safe
    /// path) still holds what the caller expects; refused files are left as they are and returned.
    /// With `retired`, the replaced versions are freed later, in the background (`RetiredFiles`).
    /// With `followingLinks` false, a link at a path is replaced, never written through.
    @discardableResult
    public func writeAll(_ files: [(path: String, data: Data)], replaceIf stillExpected: ((String) -> Bool)? = nil,
                         retiring retired: RetiredFiles? = nil, followingLinks: Bool = true) throws -> [String] {
        try requireWritableFormat()
        var prepared: [(url: URL, data: Data, displayPath: String)] = []
        // Per folder, once: created if missing, and its real path (symlinks resolved). A file is
        // then written at its folder's real path, or at its own when it is a link itself: the
        // same target as `realpath` of the whole path, without resolving every folder again.
        var realFolders: [String: String?] = [:]
        for file in files {
            let safe = try resolveSafePath(file.path, checkingLastLink: followingLinks)
            var target = url(for: safe)
            let folder = target.deletingLastPathComponent()
            if realFolders[folder.path] == nil {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                } catch {
                    throw CoreError.writeFailed(path: safe, reason: "cannot create its folder")
                }
                realFolders[folder.path] = .some(Vault.realPath(folder.path))
            }
            var status = stat()
            if followingLinks, lstat(target.path, &status) == 0 {
                let real = status.st_mode & S_IFMT == S_IFLNK
                    ? Vault.realPath(target.path)
                    : (realFolders[folder.path] ?? nil).map { $0 == "/" ? "/" + target.lastPathComponent : $0 + "/" + target.lastPathComponent }
                if let real, real != target.path { target = URL(fileURLWithPath: real) }
            }
            prepared.append((target, file.data, safe))
        }
        return try AtomicFile.writeAll(prepared, replaceIf: stillExpected, retiring: retired,
                                       temporaryFolder: temporaryFolder)
    }

    /// Normalizes a vault-relative path (`./a//b.md` → `a/b.md`), refusing empty paths, NUL,
    /// absolute paths, `..` and paths whose existing part leads outside the vault through a symlink,
    /// or into a hidden folder (`mayFollowLink`'s rule; the last component only when
    /// `checkingLastLink`: a link there that is replaced, never followed, may lead anywhere).
    public func resolveSafePath(_ path: String, checkingLastLink: Bool = true) throws -> String {
        guard !path.isEmpty, !path.contains("\0") else { throw CoreError.invalidPath(path: path) }
        guard !path.hasPrefix("/") else { throw CoreError.pathOutsideVault(path: path) }
        let parts = path.split(separator: "/").filter { $0 != "." }
        guard !parts.contains("..") else { throw CoreError.pathOutsideVault(path: path) }
        guard !parts.isEmpty else { throw CoreError.invalidPath(path: path) }
        var existing = root.path
        for part in parts.prefix(checkingLastLink ? parts.count : parts.count - 1) {
            let next = existing + "/" + part
            var status = stat()
            guard lstat(next, &status) == 0 else { break }
            // Only a symlink can lead outside: resolve those, one lstat for every other part.
            if status.st_mode & S_IFMT == S_IFLNK {
                guard let real = Vault.realPath(next), Vault.isInside(real, root: root.path) else {
                    throw CoreError.pathOutsideVault(path: path)
                }
                guard Vault.isFollowable(target: real, root: root.path) else { throw CoreError.linkIntoHiddenFolder(path: path) }
            }
            existing = next
        }
        return parts.joined(separator: "/")
    }

    /// The vault-relative path of a file URL inside the vault (symlinks in its folder resolved).
    public func relativePath(of file: URL) throws -> String {
        let standardized = file.standardizedFileURL
        let parent = Vault.realPath(standardized.deletingLastPathComponent().path)
            ?? standardized.deletingLastPathComponent().path
        let full = parent == "/" ? "/" + standardized.lastPathComponent : parent + "/" + standardized.lastPathComponent
        guard full.hasPrefix(root.path + "/") else { throw CoreError.pathOutsideVault(path: file.path) }
        return try resolveSafePath(String(full.dropFirst(root.path.count + 1)))
    }

    /// This device's name: `QUIRE_DEVICE`, else `device` in `.quire/local/config.yml`, else
    /// the host name.
    public func deviceName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let device = environment["QUIRE_DEVICE"], !device.isEmpty { return device }
        if let data = try? Data(contentsOf: url(for: ".quire/local/config.yml")),
           let name = NoteDocument(yamlFile: data).value(forKey: "device").flatMap(NoteFields.text(of:)),
           !name.isEmpty {
            return name
        }
        return ProcessInfo.processInfo.hostName
    }

    /// Reads `.quire/config.yml` (a missing file gives the defaults).
    public func config() throws -> VaultConfig {
        let path = VaultConfig.relativePath
        guard FileManager.default.fileExists(atPath: url(for: path).path) else { return VaultConfig.initial() }
        return try VaultConfig(data: try readData(path), path: path)
    }

    /// Writes `.quire/config.yml` atomically.
    public func save(_ config: VaultConfig) throws {
        try write(config.serialized(), to: VaultConfig.relativePath)
    }

    // MARK: - Helpers

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is `root` or below it, by their bytes (a folder named like the root but in
    /// another Unicode form is another folder, outside it).
    static func isInside(_ path: String, root: String) -> Bool {
        ExactPath.isWithin(path, root)
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Refuses a vault inside a git work tree whose root is above it.
    private static func checkWorkTreeRoot(_ real: String) throws {
        var status = stat()
        if lstat(real + "/.git", &status) == 0 { return }
        var directory = (real as NSString).deletingLastPathComponent
        while !directory.isEmpty {
            if lstat(directory + "/.git", &status) == 0 {
                throw CoreError.vaultNotAtWorkTreeRoot(vault: real, workTreeRoot: directory)
            }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory { break }
            directory = parent
        }
    }
}
