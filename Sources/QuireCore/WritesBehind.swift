import Dispatch
import Synchronization

/// Cache files a command writes on a thread of their own while it answers (the catalog's state
/// file, the walk's folder listings): the process waits for them after its output, before it
/// exits (`finish`), and every such write of the same file waits for those before it, so an
/// older file never lands over a newer one. A write behind that fails is not reported: the
/// next command finds the cache behind and does the work again.
public enum WritesBehind {
    /// Runs `work` on a thread of its own, once the writes running before it are done.
    public static func start(_ work: @escaping @Sendable () -> Void) {
        finish()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            work()
            group.leave()
        }
        running.withLock { $0.append(group) }
    }

    /// Waits for every write this process left running.
    public static func finish() {
        let groups = running.withLock { groups in
            defer { groups = [] }
            return groups
        }
        for group in groups { group.wait() }
    }

    /// How many writes were started and not yet waited for (tests).
    public static var pending: Int { running.withLock { $0.count } }

    /// The writes this process has running.
    private static let running = Mutex<[DispatchGroup]>([])
}
