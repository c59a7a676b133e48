import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of the built `quire` under a deadline.
struct BoundedRun {
    var stdout: String
    var stderr: String
    var code: Int32
    /// Whether the process ended by a signal (a crash, or the kill at the deadline).
    var signalled: Bool
    /// Whether the deadline passed and the process was killed.
    var timedOut: Bool
    var seconds: Double
}

/// Runs the built `quire` like `Harness.run`, but kills it at a deadline, reports signals, and can
/// run it as another user (`setpriv`), since root reads every file whatever its mode.
enum HostileRunner {
    /// The user and group for runs as another user.
    static let otherUser = (uid: UInt32(65_534), gid: UInt32(65_534), user: "nobody", group: "nogroup")

    /// Runs `quire arguments` in `directory`; `asOtherUser` drops to `nobody` through `setpriv`.
    static func run(_ arguments: [String], in directory: URL, timeout: TimeInterval = 60,
                    asOtherUser: Bool = false, environment extra: [String: String] = [:]) throws -> BoundedRun {
        let scratch = try Harness.temporaryDirectory("quire-bounded")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        if asOtherUser {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(otherUser.user)", "--regid=\(otherUser.group)", "--clear-groups",
                                 Harness.binary.path] + arguments
        } else {
            process.executableURL = Harness.binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        let home = extra["HOME"].map { URL(fileURLWithPath: $0) } ?? directory.appendingPathComponent(".test-home")
        process.environment = Harness.environment(home: home, extra: extra)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? outHandle.close(); try? errHandle.close() }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let out = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
        let err = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        return BoundedRun(stdout: out, stderr: err, code: process.terminationStatus,
                          signalled: process.terminationReason == .uncaughtSignal, timedOut: timedOut,
                          seconds: Date().timeIntervalSince(start))
    }

    /// Whether runs as another user are possible here (root with `setpriv`).
    static var canRunAsOtherUser: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    /// Gives `url` and everything below it (not following symlinks) to the other user.
    static func giveToOtherUser(_ url: URL) {
        _ = lchown(url.path, otherUser.uid, otherUser.gid)
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: url.path) else { return }
        for name in names { _ = lchown(url.appendingPathComponent(name).path, otherUser.uid, otherUser.gid) }
    }
}

/// What every file of a tree looks like (content hash, inode, mtime), to prove nothing was rewritten.
struct TreeSnapshot: Equatable {
    struct Entry: Equatable {
        var kind: String
        var size: Int64
        var inode: UInt64
        var modified: Int
        var digest: Int
    }

    var entries: [String: Entry]

    /// Takes a snapshot of `root`, skipping relative paths for which `skip` is true. Symlinks are
    /// recorded by their target text, never followed.
    init(_ root: URL, skip: (String) -> Bool = { _ in false }) {
        entries = [:]
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? root.path : root.path + "/" + relative
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                if skip(path) { continue }
                var status = stat()
                guard lstat(root.path + "/" + path, &status) == 0 else { continue }
                var hasher = Hasher()
                let kind: String
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    kind = "dir"
                    pending.append(path)
                case S_IFLNK:
                    kind = "link"
                    hasher.combine((try? FileManager.default.destinationOfSymbolicLink(atPath: root.path + "/" + path)) ?? "")
                case S_IFREG:
                    kind = "file"
                    if let data = FileManager.default.contents(atPath: root.path + "/" + path) {
                        data.withUnsafeBytes { hasher.combine(bytes: $0) }
                    }
                default:
                    kind = "other"
                }
                // A folder's own size and times change when quire adds its files under .quire/.
                entries[path] = kind == "dir" ? Entry(kind: kind, size: 0, inode: 0, modified: 0, digest: 0)
                    : Entry(kind: kind, size: Int64(status.st_size), inode: UInt64(status.st_ino),
                            modified: status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec,
                            digest: hasher.finalize())
            }
        }
    }

    /// The paths that differ between two snapshots, sorted.
    func changes(since earlier: TreeSnapshot) -> [String] {
        Set(entries.keys).union(earlier.entries.keys).filter { entries[$0] != earlier.entries[$0] }.sorted()
    }
}
