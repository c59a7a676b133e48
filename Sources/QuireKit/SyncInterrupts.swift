import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM while a sync runs (`quire sync`, `VaultSync.run`): the first one asks the sync to stop at its next
/// safe point (`SyncEnvironment.checkpoint`) instead of killing it in the middle of writing notes;
/// a second one ends the process at once, as a crash would (which the sync's journal and the
/// removal of leftover temporary files are made for).
///
/// No handler and no process-wide variable: the two signals are blocked (in the thread that
/// creates this and so in every thread it starts later), so they wait as pending until taken.
/// They are taken, under `lock`, by `received()` at each safe point, and by a watcher thread that
/// waits on a `signalfd` (to count the second one and say that the sync is stopping). Taking and
/// recording happen under one lock: a signal is always either pending or recorded, so a safe
/// point right after it arrived sees it.
///
/// What the user should hear (the sync is stopping at a safe point; stopping at once) goes to
/// `announce`: the library never prints.
public final class SyncInterrupts: @unchecked Sendable {
    private typealias SignalFD = @convention(c) (Int32, UnsafePointer<sigset_t>?, Int32) -> Int32
    /// glibc's `signalfd(2)`, which the Swift Glibc module does not declare.
    private static let signalfd = LibcFunction.named("signalfd", as: SignalFD.self)

    private var set = sigset_t()
    private var previousMask = sigset_t()
    /// The `signalfd` of `set` (non-blocking), or -1: then only `received()` takes signals.
    private let descriptor: Int32
    /// A pipe that tells the watcher to end: read end, write end.
    private var stopPipe: [Int32] = [-1, -1]
    private let watcherEnded = DispatchSemaphore(value: 0)
    private var watching = false
    private let lock = NSLock()
    /// The first signal taken; guarded by `lock`.
    private var first: Int32?
    /// Hears the two announcements (each a line without its newline).
    private let announce: @Sendable (String) -> Void
    /// The two announcements: the first signal taken, the second.
    private let stopping: (first: String, second: String)

    /// What a sync says when asked to stop, and a clone (which removes what it made).
    public static let syncAnnouncements = (first: "quire: stopping the sync at a safe point (interrupt again to stop at once)",
                                           second: "quire: stopping at once; the next 'quire sync' finishes what this one started")
    public static let cloneAnnouncements = (first: "quire: stopping the clone (interrupt again to stop at once)",
                                            second: "quire: stopping at once; remove the folder it was cloning into before cloning again")

    /// Blocks SIGINT and SIGTERM until `restore()`; call it before the sync starts any thread.
    /// `announce` hears "stopping at a safe point" and "stopping at once" (on the watcher thread).
    public init(announcing stopping: (first: String, second: String) = SyncInterrupts.syncAnnouncements,
                announce: @escaping @Sendable (String) -> Void) {
        self.announce = announce
        self.stopping = stopping
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, &previousMask)
        descriptor = Self.signalfd.map { make in withUnsafePointer(to: signals) { make(-1, $0, O_NONBLOCK | O_CLOEXEC) } } ?? -1
        set = signals
        guard descriptor >= 0, pipe(&stopPipe) == 0 else { return }
        watching = true
        let thread = Thread { [self] in watch() }
        thread.name = "quire.sync-interrupts"
        thread.start()
    }

    /// The signal that asked the sync to stop, or nil.
    public func received() -> Int32? {
        lock.withLock {
            if first == nil { first = take() }
            return first
        }
    }

    /// Ends the watcher, drops signals that arrived after the sync's last safe point (it finished
    /// or reported the first one), and unblocks the signals.
    public func restore() {
        if watching {
            var byte = UInt8(0)
            _ = write(stopPipe[1], &byte, 1)
            watcherEnded.wait()
            watching = false
        }
        lock.withLock { while take() != nil {} }
        for end in stopPipe where end >= 0 { close(end) }
        stopPipe = [-1, -1]
        if descriptor >= 0 { close(descriptor) }
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// One pending signal of `set`, taken from the queue; nil when none is pending. Under `lock`.
    private func take() -> Int32? {
        if descriptor >= 0 {
            // struct signalfd_siginfo is 128 bytes; ssi_signo is its first field.
            var buffer = [UInt8](repeating: 0, count: 128)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 128) }
            guard count == 128 else { return nil }
            return buffer.withUnsafeBytes { Int32(bitPattern: $0.load(as: UInt32.self)) }
        }
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        let signal = sigtimedwait(&set, nil, &zero)
        return signal > 0 ? signal : nil
    }

    /// The watcher: the first signal is recorded and announced; a second one ends the process
    /// with that signal's default action.
    private func watch() {
        defer { watcherEnded.signal() }
        var items = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&items, 2, -1) >= 0 || errno == EINTR else { return }
            if items[1].revents != 0 { return }
            guard items[0].revents != 0 else { continue }
            let signal: Int32? = lock.withLock {
                guard let signal = take() else { return nil }
                if first == nil {
                    first = signal
                    announce(stopping.first)
                    return nil
                }
                return signal
            }
            guard let signal else { continue }
            announce(stopping.second)
            Glibc.signal(signal, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(signal)
        }
    }
}
