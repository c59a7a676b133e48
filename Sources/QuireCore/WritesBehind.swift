import Dispatch
import Foundation
import Synchronization

/// Cache files a command writes on a thread of their own while it answers (the catalog's state
/// file, the walk's folder listings): the process waits for them after its output, before it
/// exits (`shared.finish()`), and every such write waits for those before it, so an older file
/// never lands over a newer one. A write behind that fails is not reported: the next command
/// finds the cache behind and does the work again.
public final class WritesBehind: Sendable {
    /// The process's writes behind: what `QuireCLI.main` waits for before it returns.
    public static let shared = WritesBehind()

    /// The writes started and not yet waited for.
    private let running = Mutex<[DispatchGroup]>([])

    /// Writes of their own (a test's, so that no other test's writes count among them).
    public init() {}

    /// Runs `work` on a thread of its own, once the writes started before it are done.
    public func start(_ work: @escaping @Sendable () -> Void) {
        finish()
        let group = DispatchGroup()
        group.enter()
        // A thread of its own, not the dispatch pool's (whose few threads may all be waiting).
        Thread.detachNewThread {
            work()
            group.leave()
        }
        running.withLock { $0.append(group) }
    }

    /// Waits for every write started and not yet waited for.
    public func finish() {
        let groups = running.withLock { groups in
            defer { groups = [] }
            return groups
        }
        for group in groups { group.wait() }
    }

    /// How many writes were started and not yet waited for.
    public var pending: Int { running.withLock { $0.count } }
}
