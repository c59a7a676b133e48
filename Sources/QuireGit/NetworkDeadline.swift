import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A watchdog for one network operation. libgit2 1.5.1 has no timeouts and a stalled socket
/// never calls back, so when `seconds` pass without progress this shuts down every socket the
/// process opened after the watchdog started; the blocked libgit2 read then fails and the
/// caller reports `timedOut`. Every progress callback re-arms it (`touch()`), so a long
/// transfer that keeps moving is never cut off. Meant for a process (like the CLI) that runs
/// one transfer at a time.
final class NetworkDeadline: @unchecked Sendable {
    private let lock = NSLock()
    private var expired = false
    private var finished = false
    private let socketsBefore: Set<Int32>
    private let timer: DispatchSourceTimer
    private let seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
        socketsBefore = NetworkDeadline.openSockets()
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Whether the deadline passed before `stop()`.
    var hasExpired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return expired
    }

    /// Progress was made: the deadline moves to `seconds` from now.
    func touch() {
        lock.lock()
        defer { lock.unlock() }
        guard !finished, !expired else { return }
        timer.schedule(deadline: .now() + seconds)
    }

    /// Disarms the watchdog once the operation returned.
    func stop() {
        lock.lock()
        finished = true
        lock.unlock()
        timer.cancel()
    }

    private func fire() {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        expired = true
        for socket in NetworkDeadline.openSockets().subtracting(socketsBefore) {
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    /// File descriptors of this process that are sockets (from `/proc/self/fd`).
    static func openSockets() -> Set<Int32> {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var result: Set<Int32> = []
        for name in names {
            guard let fd = Int32(name) else { continue }
            var info = stat()
            if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK { result.insert(fd) }
        }
        return result
    }
}
