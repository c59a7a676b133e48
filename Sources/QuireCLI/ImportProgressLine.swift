import Foundation
import QuireKit

/// Draws an import's progress on one line of a terminal (`importing: 400/1000 entries (40%)`),
/// at most ten times a second; `stop()` erases it.
final class ImportProgressLine: @unchecked Sendable {
    private let output: Output
    private let lock = NSLock()
    private var lastDraw = 0.0
    private let started = ProgressLine.now()

    /// A line for `context`'s command, or nil when standard error is not a terminal, `shown` is
    /// false (`--json`) or `NO_PROGRESS` is set.
    static func start(_ context: CommandContext, shown: Bool) -> ImportProgressLine? {
        guard shown, context.output.stderrIsTerminal, context.environment["NO_PROGRESS"].map(\.isEmpty) ?? true else { return nil }
        return ImportProgressLine(output: context.output)
    }

    private init(output: Output) {
        self.output = output
    }

    /// The callback the import calls.
    var report: ImportProgress {
        { [self] done, total in self.draw(done, total) }
    }

    private func draw(_ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = ProgressLine.now()
        guard now - lastDraw >= ProgressLine.interval || done == total else { return }
        lastDraw = now
        let left = ProgressLine.timeLeft(count: done, total: total, done: done, elapsed: now - started)
        ProgressLine.draw("importing: " + ProgressLine.count(done, of: total, "entries") + left, on: output)
    }

    /// Erases the line.
    func stop() {
        output.clearProgress()
    }
}
