import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP for the sync daemon, as a descriptor its loop polls: the signals
/// are blocked (in the creating thread, and so in every thread it starts later) and read from a
/// `signalfd`. During a cycle the sync's safe points take them (`interruption`): the first stop
/// signal lets the cycle finish, a second one stops it at its next safe point.
final class DaemonSignals: @unchecked Sendable {
    private typealias SignalFD = @convention(c) (Int32, UnsafePointer<sigset_t>?, Int32) -> Int32
    private static let signalfd = LibcFunction.named("signalfd", as: SignalFD.self)

    /// The `signalfd`, readable when a signal is pending.
    let descriptor: Int32
    private var previousMask = sigset_t()
    private let lock = NSLock()
    private var stops = 0
    private var reloads = 0

    init() throws {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, &previousMask)
        guard let make = Self.signalfd else {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw SyncDaemonError.system(function: "signalfd", path: "", message: "not available in this C library")
        }
        descriptor = withUnsafePointer(to: signals) { make(-1, $0, O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let message = String(cString: strerror(errno))
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw SyncDaemonError.system(function: "signalfd", path: "", message: message)
        }
    }

    deinit {
        close(descriptor)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// Reads every pending signal; returns (stop signals so far, reloads asked since the last call).
    func take() -> (stops: Int, reloads: Int) {
        lock.withLock {
            readPending()
            let result = (stops, reloads)
            reloads = 0
            return result
        }
    }

    /// For the sync's safe points: the stop signal when a second one arrived, else nil.
    func interruption() -> Int32? {
        lock.withLock {
            readPending()
            return stops >= 2 ? SIGTERM : nil
        }
    }

    /// Under `lock`.
    private func readPending() {
        var buffer = [UInt8](repeating: 0, count: 128)  // struct signalfd_siginfo
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, 128) }) == 128 {
            let signal = buffer.withUnsafeBytes { Int32(bitPattern: $0.load(as: UInt32.self)) }
            if signal == SIGHUP { reloads += 1 } else { stops += 1 }
        }
    }
}
