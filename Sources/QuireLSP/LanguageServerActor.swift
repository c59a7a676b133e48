import Foundation
import Synchronization

/// The isolation of the language server's state: one serial executor on a thread of its own,
/// never the shared concurrency pool, so that threads blocked elsewhere in the process (a test
/// waiting for an answer, a command waiting for a child) can never hold the server up.
@globalActor
public actor LanguageServerActor {
    /// The one instance.
    public static let shared = LanguageServerActor()

    private let executor = ThreadExecutor(name: "quire-lsp")

    /// Runs the actor's jobs on the executor's thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Starts `work` on the actor from any thread. The task prefers the actor's executor, so
    /// neither its start nor its resumptions wait for a thread of the shared pool.
    static func perform(_ work: @escaping @Sendable @LanguageServerActor () async -> Void) {
        Task(executorPreference: shared.executor, operation: work)
    }
}

/// A serial executor that runs its jobs in order on one thread it starts and keeps for the
/// life of the process.
final class ThreadExecutor: SerialExecutor, TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    /// Signalled once per job enqueued.
    private let enqueued = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name`.
    init(name: String) {
        let thread = Thread { [self] in
            while true {
                enqueued.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedSerialExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        enqueued.signal()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }
}
