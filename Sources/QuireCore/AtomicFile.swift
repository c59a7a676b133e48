import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Atomic file replacement: write a temporary file (in `temporaryFolder` when that is on the
/// target's file system, else beside the target; see `TemporaryFiles`), fsync it, give it the
/// permissions of the file it replaces, rename it over the target, fsync the directory.
/// A crash at any point leaves either the old or the new file, never a mix.
public enum AtomicFile {
    /// Writes `data` to `url` atomically; `displayPath` names the file in errors. With
    /// `permissions`, the file gets exactly those (a secret: 0600). `durable` false skips both
    /// fsyncs, for a rebuildable cache whose reader refuses a damaged file (after a crash it may
    /// find the old file, the new one or a cut one): a command does not wait on the disk for it.
    public static func write(_ data: Data, to url: URL, displayPath: String, temporaryFolder: String? = nil,
                             permissions: mode_t? = nil, durable: Bool = true) throws {
        let directory = url.deletingLastPathComponent().path
        let location = temporaryLocation(forFilesIn: directory, folder: temporaryFolder)
        // An existing file keeps its permissions; a new one gets 0666 minus the umask.
        var existingMode: mode_t? = permissions
        var status = stat()
        if permissions == nil, stat(url.path, &status) == 0 { existingMode = status.st_mode & 0o7777 }
        func failure(_ what: String) -> CoreError {
            CoreError.writeFailed(path: displayPath, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        let (descriptor, temporary) = createTemporary(in: location, mode: existingMode ?? 0o666)
        guard descriptor >= 0 else { throw failure("cannot create a temporary file") }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    guard let base = raw.baseAddress else { break }
                    let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("write failed")
                    }
                    offset += written
                }
            }
            if let mode = existingMode, fchmod(descriptor, mode) != 0 { throw failure("cannot set permissions") }
            guard !durable || fsync(descriptor) == 0 else { throw failure("fsync failed") }
            closed = true
            guard close(descriptor) == 0 else { throw failure("close failed") }
            guard rename(temporary, url.path) == 0 else { throw failure("rename failed") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard durable else { return }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            defer { close(directoryDescriptor) }
            guard fsync(directoryDescriptor) == 0 else { throw failure("fsync of the folder failed") }
        }
    }
}

extension AtomicFile {
    /// Where a temporary file for a target in `directory` goes: `folder` (created if missing)
    /// when it is on the same file system as `directory`, so that the rename stays atomic;
    /// else `directory` itself.
    static func temporaryLocation(forFilesIn directory: String, folder: String?) -> String {
        guard let folder else { return directory }
        var target = stat()
        var holder = stat()
        guard stat(directory, &target) == 0 else { return directory }
        if stat(folder, &holder) != 0 {
            guard errno == ENOENT else { return directory }
            let parent = (folder as NSString).deletingLastPathComponent
            if mkdir(parent, 0o755) != 0 && errno != EEXIST { return directory }
            if mkdir(folder, 0o700) != 0 && errno != EEXIST { return directory }
            guard stat(folder, &holder) == 0 else { return directory }
        }
        return holder.st_dev == target.st_dev ? folder : directory
    }

    /// Creates a fresh temporary file in `location` (never an existing one: `O_EXCL`), trying
    /// another name when one is taken; returns its descriptor (-1 with `errno` set) and path.
    static func createTemporary(in location: String, mode: mode_t) -> (descriptor: Int32, path: String) {
        var path = location + "/" + TemporaryFiles.freshName()
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        var attempts = 1
        while descriptor < 0 && errno == EEXIST && attempts < 16 {
            path = location + "/" + TemporaryFiles.freshName()
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            attempts += 1
        }
        return (descriptor, path)
    }

    /// glibc's `syncfs(2)` (flushes one file system), looked up at run time because the Swift
    /// Glibc module does not export it; nil falls back to `sync()`.
    private static let syncfs = LibcFunction.named("syncfs", as: (@convention(c) (Int32) -> Int32).self)

    /// Writes many files atomically with one flush instead of one per file: every temporary
    /// file is written first, the file system is flushed once (`syncfs`), then each temporary
    /// file is renamed over its target and each folder touched is flushed once. A crash leaves
    /// every file either old or new. `replaceIf`, when given, is asked right before each rename
    /// (with the display path) whether the target is still what the caller expects; a file it
    /// refuses is left untouched (someone changed it meanwhile) and its display path returned.
    /// With `retired`, each file replaced is first linked into its folder, to be freed later in
    /// the background (see `RetiredFiles`).
    @discardableResult
    static func writeAll(_ files: [(url: URL, data: Data, displayPath: String)],
                         replaceIf stillExpected: ((String) -> Bool)? = nil,
                         retiring retired: RetiredFiles? = nil, temporaryFolder: String? = nil) throws -> [String] {
        guard !files.isEmpty else { return [] }
        var staged: [(temporary: String, target: String, displayPath: String)] = []
        // How many of `staged` are renamed or skipped (the rest are removed on the way out).
        var done = 0
        defer { for item in staged[done...] { unlink(item.temporary) } }
        var flushDescriptor: Int32 = -1
        defer { if flushDescriptor >= 0 { close(flushDescriptor) } }
        var locations: [String: String] = [:]  // target folder → where its temporaries go
        for file in files {
            let directory = file.url.deletingLastPathComponent().path
            let location = locations[directory] ?? temporaryLocation(forFilesIn: directory, folder: temporaryFolder)
            locations[directory] = location
            var existingMode: mode_t?
            var status = stat()
            if stat(file.url.path, &status) == 0 { existingMode = status.st_mode & 0o7777 }
            let (descriptor, temporary) = createTemporary(in: location, mode: existingMode ?? 0o666)
            guard descriptor >= 0 else {
                throw CoreError.writeFailed(path: file.displayPath, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))")
            }
            staged.append((temporary, file.url.path, file.displayPath))
            let ok = file.data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count, let base = raw.baseAddress {
                    let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
            if ok, let mode = existingMode { _ = fchmod(descriptor, mode) }
            close(descriptor)
            guard ok else {
                throw CoreError.writeFailed(path: file.displayPath, reason: "write failed: \(String(cString: strerror(errno)))")
            }
            if flushDescriptor < 0 { flushDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }
        if flushDescriptor >= 0, let syncfs = AtomicFile.syncfs {
            guard syncfs(flushDescriptor) == 0 else {
                throw CoreError.writeFailed(path: files[0].displayPath, reason: "flush failed: \(String(cString: strerror(errno)))")
            }
        } else {
            sync()
        }
        var directories = Set<String>()
        var skipped: [String] = []
        // By index: removing the first of thousands of staged files each time took quadratic time.
        while done < staged.count {
            let item = staged[done]
            if let stillExpected, !stillExpected(item.displayPath) {
                unlink(item.temporary)
                done += 1
                skipped.append(item.displayPath)
                continue
            }
            retired?.retire(item.target)
            guard rename(item.temporary, item.target) == 0 else {
                throw CoreError.writeFailed(path: item.displayPath, reason: "rename failed: \(String(cString: strerror(errno)))")
            }
            done += 1
            directories.insert((item.target as NSString).deletingLastPathComponent)
        }
        for directory in directories.sorted() {
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 {
                _ = fsync(descriptor)
                close(descriptor)
            }
        }
        return skipped
    }
}
