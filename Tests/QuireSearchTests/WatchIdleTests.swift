import Foundation
import Synchronization
import Testing
@testable import QuireSearch

/// The watcher's idle limit, in process, on a clock the test moves: nobody asking for the limit
/// stops it, a question starts the wait again, folder events do not, and `stayAwake` (a sync
/// daemon using it) keeps it.
@Suite struct WatchIdleTests {
    /// A clock that only moves when the test says so (or, with `step`, at every reading).
    final class TestClock: Sendable {
        private let now = Mutex<Double>(1_000)
        private let step: Double
        init(step: Double = 0) { self.step = step }
        func read() -> Double { now.withLock { $0 += step; return $0 } }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    /// The server, handed to the thread that runs it, and how its run ended.
    final class Running: @unchecked Sendable {
        let server: WatchServer
        let ended = Mutex<WatchServer.Ending?>(nil)
        init(_ server: WatchServer) { self.server = server }
        var ending: WatchServer.Ending? { ended.withLock { $0 } }

        /// Polls (without a timing assertion) until the run ended or a generous bound passed.
        func waitForEnd() {
            for _ in 0..<6_000 where ending == nil { usleep(10_000) }
        }
    }

    @Test func nobodyAskingForTheLimitStopsItAndAQuestionRestartsTheWait() throws {
        let vault = try TestVault()
        let root = URL(fileURLWithPath: vault.root).resolvingSymlinksInPath().path
        let running = Running(try WatchServer(realRoot: root))
        let clock = TestClock()
        let limit = WatchIdleLimit(seconds: 3_600, clock: clock.read)
        Thread {
            let ending = try? running.server.run(idle: limit)
            running.ended.withLock { $0 = ending }
        }.start()
        var answered = false
        for _ in 0..<500 where !answered {
            answered = WatchClient.status(realRoot: root) != nil
            if !answered { usleep(10_000) }
        }
        #expect(answered)
        // Almost an hour, then a question: the wait starts again.
        clock.advance(3_599)
        #expect(WatchClient.status(realRoot: root) != nil)
        clock.advance(3_599)
        try vault.write("a.md", "A folder event is no question.\n")
        #expect(WatchClient.status(realRoot: root) != nil)
        #expect(running.ending == nil)
        // An hour with no question: the next wake-up (a folder event) ends it.
        clock.advance(3_600)
        try vault.write("b.md", "Wakes it up.\n")
        running.waitForEnd()
        #expect(running.ending == .idle)
        #expect(WatchClient.status(realRoot: root) == nil)
    }

    @Test func whileSomethingReliesOnItItStays() throws {
        let vault = try TestVault()
        let root = URL(fileURLWithPath: vault.root).resolvingSymlinksInPath().path
        let server = try WatchServer(realRoot: root)
        // Each reading is an hour later: the limit is reached at every check.
        let clock = TestClock(step: 3_600)
        let asked = Mutex(0)
        let limit = WatchIdleLimit(seconds: 3_600, clock: clock.read,
                                   stayAwake: { asked.withLock { $0 += 1; return $0 < 3 } })
        #expect(try server.run(idle: limit) == .idle)
        #expect(asked.withLock { $0 } == 3)
    }
}
