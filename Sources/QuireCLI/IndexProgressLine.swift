import Foundation
import QuireSearch

/// Draws a catalog refresh on one line of a terminal: the phase by name and, while notes are
/// read, `indexing: 1200/5000 notes (24%), 3400 notes/s, about 2 s left`. A timer reads the
/// indexer's counters 10 times a second; each phase is drawn as it begins. Nothing is drawn
/// during the first half second, so a small vault never shows a line. `stop()` erases it.
final class IndexProgressLine: @unchecked Sendable {
    /// What the indexer writes and this line reads.
    private(set) var progress = IndexProgress()
    private let output: Output
    private let lock = NSLock()
    private let started: Double
    private let delay: Double
    private var phaseStarted: Double
    private var stopped = false
    private var timer: DispatchSourceTimer?

    /// A line for `context`'s command, or nil when nothing may be drawn: standard error is not a
    /// terminal, `shown` is false (e.g. under `--json`), or `NO_PROGRESS` is set. The test hook
    /// `QUIRE_PROGRESS_AFTER` (seconds, default 0.5) sets how long the line waits to appear.
    static func start(_ context: CommandContext, shown: Bool) -> IndexProgressLine? {
        let environment = context.environment
        guard shown, context.output.stderrIsTerminal, environment["NO_PROGRESS"].map(\.isEmpty) ?? true else { return nil }
        let delay = environment["QUIRE_PROGRESS_AFTER"].flatMap(Double.init) ?? 0.5
        let line = IndexProgressLine(output: context.output, delay: max(0, delay))
        line.startTimer()
        return line
    }

    private init(output: Output, delay: Double) {
        self.output = output
        self.delay = delay
        started = ProgressLine.now()
        phaseStarted = started
        progress = IndexProgress { [weak self] phase in self?.began(phase) }
    }

    private func startTimer() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + min(delay, ProgressLine.interval), repeating: ProgressLine.interval)
        timer.setEventHandler { [weak self] in self?.draw() }
        lock.lock()
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    /// Stops the timer and erases the line (before the command prints anything).
    func stop() {
        lock.lock()
        stopped = true
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
        output.clearProgress()
    }

    private func began(_ phase: IndexProgress.Phase) {
        lock.lock()
        phaseStarted = ProgressLine.now()
        lock.unlock()
        draw()
    }

    private func draw() {
        lock.lock()
        defer { lock.unlock() }
        let now = ProgressLine.now()
        guard !stopped, now - started >= delay else { return }
        ProgressLine.draw(Self.text(progress.phase, count: progress.done, total: progress.total,
                                    elapsed: now - phaseStarted), on: output)
    }

    /// `scanning the vault…`, `indexing: 1200/5000 notes (24%), 3400 notes/s, about 2 s left`,
    /// `writing the catalog…`.
    static func text(_ phase: IndexProgress.Phase, count: Int, total: Int, elapsed: Double) -> String {
        guard phase == .indexing else { return phase.name + "…" }
        let shown = min(count, total)
        var text = phase.name + ": " + ProgressLine.count(shown, of: total, "notes")
        guard elapsed >= 0.5, shown > 0 else { return text }
        text += ", \(Int((Double(shown) / elapsed).rounded())) notes/s"
        return text + ProgressLine.timeLeft(count: shown, total: total, done: shown, elapsed: elapsed)
    }
}
