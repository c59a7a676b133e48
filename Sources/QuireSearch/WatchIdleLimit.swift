#if canImport(Glibc)
import Glibc
#endif

/// When a watcher nobody asks anything stops (`WatchServer.run(idle:)`): the watcher a command
/// starts by itself exits after an idle hour, unless something still relies on it.
public struct WatchIdleLimit: Sendable {
    /// Seconds without a question after which the watcher stops.
    public var seconds: Double
    /// Monotonic seconds; tests set their own.
    public var clock: @Sendable () -> Double
    /// Asked when the time is up: true keeps the watcher for another `seconds` (a sync daemon of
    /// the vault uses it).
    public var stayAwake: @Sendable () -> Bool

    /// A limit of `seconds`, read on `clock`, kept open while `stayAwake` says so.
    public init(seconds: Double, clock: @escaping @Sendable () -> Double = WatchIdleLimit.monotonic,
                stayAwake: @escaping @Sendable () -> Bool = { false }) {
        self.seconds = seconds
        self.clock = clock
        self.stayAwake = stayAwake
    }

    /// Seconds of the system's monotonic clock.
    public static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
