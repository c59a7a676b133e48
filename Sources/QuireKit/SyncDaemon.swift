import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The sync daemon behind `quire watch --sync`: waits on inotify (`SyncTreeWatch`) and its
/// signals with `poll`, its only timeout the next due moment (a debounced cycle, the fetch timer,
/// a retry), so an idle vault costs nothing; runs `VaultSync` when local changes have settled or
/// the fetch timer is due; backs off while the remote cannot be reached; stops retrying when only
/// the user can help (authentication, unknown host key). Its health goes to
/// `.quire/local/daemon.json` (`SyncDaemonHealth`), one line per cycle to `.quire/local/log`
/// and to `logLine`.
///
/// Create it on the thread that will run it, before any other thread starts (it blocks the stop
/// signals, which threads inherit).
public final class SyncDaemon {
    let vault: Vault
    let environment: [String: String]
    let overrides: [String: Double]
    let logLine: (String) -> Void
    var settings: SyncDaemonSettings
    let signals: DaemonSignals
    let watch: SyncTreeWatch
    private let lock: SyncDaemonLock
    var health: SyncDaemonHealth
    var log: SyncDaemonLog

    /// Pending changes: path → (drains it appeared in, last seen), and the first one's time.
    var pending: [String: (count: Int, last: Double)] = [:]
    var firstPending: Double?
    /// The next fetch, or retry after a failure (monotonic seconds).
    var nextFetch: Double
    /// Consecutive failures to reach the remote.
    var failures = 0
    /// An earliest time for the next cycle after one was skipped (busy vault), monotonic.
    var notBefore: Double = 0
    /// The `lastSync` of the sync state when the daemon stopped for the user, and whether that
    /// state recorded a success (a state written after the failure may share its second).
    var stoppedAtSync: Date?
    var stoppedStateWasSuccess = false
    /// The clock the daemon's timing reads (monotonic seconds); tests set their own.
    var clock: () -> Double = SyncDaemon.monotonic
    /// A number in 0...1 drawn for each backoff wait (its jitter); tests set their own.
    var jitter: () -> Double = { Double.random(in: 0...1) }

    /// Takes the vault's daemon lock, reads the settings (`overrides`: config key → value, from
    /// the command line), blocks the signals and starts watching. Throws
    /// `SyncDaemonError.alreadyRunning` when another daemon runs for the vault.
    public init(vault: Vault, environment: [String: String], overrides: [String: Double] = [:],
                logLine: @escaping (String) -> Void) throws {
        self.vault = vault
        self.environment = environment
        self.overrides = overrides
        self.logLine = logLine
        lock = try SyncDaemonLock(vaultRoot: vault.root)
        settings = try Self.settings(vault, overrides)
        signals = try DaemonSignals()
        watch = try SyncTreeWatch(root: vault.root.path, rules: GitIgnoreRules.of(vault, environment: environment))
        health = SyncDaemonHealth(pid: Int(getpid()), since: Date())
        log = SyncDaemonLog(vaultRoot: vault.root, limit: settings.logSize)
        nextFetch = Self.monotonic()  // a first cycle at once: commit what changed while no daemon ran
    }

    /// The number of folders watched.
    public var folderCount: Int { watch.folderCount }

    static func settings(_ vault: Vault, _ overrides: [String: Double]) throws -> SyncDaemonSettings {
        var settings = try SyncDaemonSettings.load(vault)
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) { settings.set(key, value) }
        return settings
    }

    /// Seconds of a monotonic clock.
    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Runs until SIGINT or SIGTERM (an in-flight cycle finishes first), or until `stopDescriptor`
    /// (when given) becomes readable. Throws only when the vault itself cannot be watched any more.
    public func run(stopDescriptor: Int32? = nil) throws {
        say("started: watching \(folderCount) folders; debounce \(Self.seconds(settings.debounce)), fetch every \(Self.seconds(settings.fetchInterval))")
        defer {
            health.nextFetch = nil
            saveHealth()
            say("stopped")
        }
        var descriptors = [pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0)]
        if let stopDescriptor { descriptors.append(pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let now = clock()
            let due = dueTime(now: now)
            if due <= now {
                runCycle()
                let (stops, reloads) = signals.take()
                if stops > 0 { return }
                if reloads > 0 { reload() }
                continue
            }
            updateHealthTimes(now: now)
            let timeout = due == .infinity ? -1 : Int32(min(Double(Int32.max), ((due - now) * 1000).rounded(.up)))
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR {
                throw SyncDaemonError.system(function: "poll", path: vault.root.path, message: String(cString: strerror(errno)))
            }
            let (stops, reloads) = signals.take()
            if stops > 0 { return }
            if descriptors.count > 2, descriptors[2].revents != 0 { return }
            if reloads > 0 { reload() }
            if descriptors[0].revents != 0 { try takeChanges() }
        }
    }

    /// When the next cycle is due (monotonic; infinity: only an event can make one due).
    func dueTime(now: Double) -> Double {
        var due = health.stoppedBecause == nil ? nextFetch : .infinity
        if let first = firstPending {
            let last = pending.values.map(\.last).max() ?? first
            let hot = pending.values.contains { $0.count >= 3 && now - $0.last < settings.debounce * 2 }
            var settled = last + settings.debounce * (hot ? 2 : 1)
            settled = min(settled, first + settings.maxDelay)
            if health.stoppedBecause == nil { due = min(due, settled) }
        }
        return max(due, notBefore)
    }

    /// Reads the watch: pending changes (but `written`: files this daemon's cycle just wrote),
    /// and a sync by hand that cleared a stop.
    func takeChanges(except written: Set<ExactPath> = []) throws {
        var changes = try watch.drain()
        changes.paths.subtract(written)
        let now = clock()
        var paths = changes.paths.map(\.string)
        if changes.overflow { paths.append("*") }
        for path in paths {
            let entry = pending[path] ?? (count: 0, last: now)
            pending[path] = (entry.count + 1, now)
        }
        if !paths.isEmpty, firstPending == nil { firstPending = now }
        if changes.syncStateChanged, let reason = health.stoppedBecause, manualSyncSucceeded() {
            health.stoppedBecause = nil
            failures = 0
            health.backoffSeconds = 0
            nextFetch = now + settings.fetchInterval
            say("resumed: a sync by hand succeeded (stopped because \(reason))")
            saveHealth()
        }
    }

    /// SIGHUP: settings read again; a stop for the user's sake and the backoff are cleared and a
    /// cycle runs at once.
    func reload() {
        do {
            settings = try Self.settings(vault, overrides)
            log = SyncDaemonLog(vaultRoot: vault.root, limit: settings.logSize)
            say("reloaded the settings: debounce \(Self.seconds(settings.debounce)), fetch every \(Self.seconds(settings.fetchInterval))")
        } catch {
            say("reload failed, keeping the previous settings: \(error)")
        }
        health.stoppedBecause = nil
        failures = 0
        health.backoffSeconds = 0
        notBefore = 0
        nextFetch = clock()
        saveHealth()
    }

    /// Rewrites the health record when the next fetch moved by a second or more, or the number
    /// of pending changes changed: a busy vault does not rewrite it for every event.
    func updateHealthTimes(now: Double) {
        let due = dueTime(now: now)
        let next: Date? = due == .infinity ? nil : Date().addingTimeInterval(due - now)
        let moved: Bool
        switch (health.nextFetch, next) {
        case (nil, nil): moved = false
        case let (old?, new?): moved = abs(old.timeIntervalSince(new)) >= 1
        default: moved = true
        }
        guard moved || health.pendingChanges != pending.count else { return }
        health.nextFetch = next
        health.pendingChanges = pending.count
        saveHealth()
    }

    func saveHealth() {
        do {
            try health.save(vault)
        } catch {
            logLine("quire: warning: cannot write \(SyncDaemonHealth.relativePath): \(error)")
        }
    }

    /// One line to the log file and to `logLine`.
    func say(_ line: String) {
        logLine(log.append(line, at: Date()))
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
