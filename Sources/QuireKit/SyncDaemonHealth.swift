import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// What the sync daemon says about itself, in `.quire/local/daemon.json` (never tracked), written
/// atomically after every change of state; `quire status` reads it. `running` is true only while
/// the process that wrote it still holds the daemon lock (`SyncDaemonHealth.read`).
public struct SyncDaemonHealth: Codable, Equatable, Sendable {
    /// The daemon's process id.
    public var pid: Int
    /// When it started.
    public var since: Date
    /// Whether it runs: set by `read` from the lock, not stored meaningfully.
    public var running = false
    /// When its last cycle ended.
    public var lastCycle: Date?
    /// `ok`, `offline`, `skipped (…)`, `authentication failed`, … of the last cycle.
    public var lastResult: String?
    /// One line of what the last cycle did.
    public var lastSummary: String?
    /// When the next fetch (or retry) is due; nil while stopped by an error that needs the user.
    public var nextFetch: Date?
    /// Changed paths waiting for the debounce.
    public var pendingChanges = 0
    /// The current wait between attempts after failures, seconds (0: none).
    public var backoffSeconds: Double = 0
    /// The last error and when it happened (kept after later successes, for the record).
    public var lastError: String?
    /// When `lastError` happened.
    public var lastErrorAt: Date?
    /// Set when retrying cannot help (authentication failed, unknown host key): the daemon stops
    /// syncing until its settings change (SIGHUP) or a sync by hand succeeds.
    public var stoppedBecause: String?
    /// Conflicts resolved automatically by the daemon's cycles since it started.
    public var conflicts: [String] = []

    /// The file, relative to the vault root.
    public static let relativePath = ".quire/local/daemon.json"
    /// The daemon lock, relative to the vault root.
    public static let lockPath = ".quire/local/daemon.lock"

    /// A fresh health record for the running process.
    public init(pid: Int, since: Date) {
        self.pid = pid
        self.since = since
    }

    /// The health of the vault's daemon: nil when none ever ran; `running` false when the one
    /// that wrote it is gone.
    public static func read(vaultRoot root: URL) -> SyncDaemonHealth? {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(relativePath)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .quireISO8601
        guard var health = try? decoder.decode(SyncDaemonHealth.self, from: data) else { return nil }
        health.running = lockHolder(vaultRoot: root) == health.pid
        return health
    }

    /// Writes the record atomically.
    func save(_ vault: Vault) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .quireUTC
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try vault.write(try encoder.encode(self), to: Self.relativePath, followingLinks: false)
    }

    /// The pid of the process holding the daemon lock, or nil when nobody holds it.
    public static func lockHolder(vaultRoot root: URL) -> Int? {
        let path = root.appendingPathComponent(lockPath).path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A shared lock is refused while the daemon holds its exclusive one.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return -1 }
        return Int(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// The daemon lock: one sync daemon per vault (`flock` on `.quire/local/daemon.lock`, released by
/// the kernel when the process dies). Holds the descriptor until `deinit`.
final class SyncDaemonLock {
    private let descriptor: Int32

    init(vaultRoot root: URL) throws {
        let path = root.appendingPathComponent(SyncDaemonHealth.lockPath).path
        try? FileManager.default.createDirectory(atPath: root.appendingPathComponent(".quire/local").path,
                                                 withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SyncDaemonError.system(function: "open", path: path, message: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw SyncDaemonError.alreadyRunning(pid: SyncDaemonHealth.lockHolder(vaultRoot: root))
        }
        _ = ftruncate(descriptor, 0)
        let text = "\(getpid())\n"
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        self.descriptor = descriptor
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
