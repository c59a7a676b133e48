import Foundation
import QuireKit

/// Draws a fetch or push on one line of a terminal: the phase by name with its counts, the
/// bytes moved, the rate and the time left — at most 10 times a second (plus each phase's first
/// and last step), so a clone of 10,000 objects writes a few dozen lines, not one per object.
/// While libgit2 says nothing (a first push counting its objects between reports, the server
/// storing a pack) a timer redraws it every second with the step's seconds (`TransferPulse`).
/// The command stops it (`stop()`) when the transfer ends or fails.
final class TransferProgressLine: @unchecked Sendable {
    private let output: Output
    private let lock = NSLock()
    private let clock: @Sendable () -> Double
    private var phase: TransferActivity.Phase?
    private var phaseStarted = 0.0
    private var firstCount = 0
    private var firstBytes = 0
    private var lastDrawn = -1.0
    private var drewLast = false
    /// How many times the line was drawn (for tests of the throttle).
    private(set) var draws = 0
    private var pulse = TransferPulse()
    private var timer: DispatchSourceTimer?
    private var stopped = false

    /// `clock` gives seconds from any fixed origin (default: the monotonic clock).
    init(output: Output, clock: @escaping @Sendable () -> Double = ProgressLine.now) {
        self.output = output
        self.clock = clock
    }

    /// Shows `step` (a sync's phase: "committing…") at once, until a transfer reports.
    func announce(_ step: String) {
        lock.lock()
        defer { lock.unlock() }
        (phase, lastDrawn) = (nil, clock())
        draw("\(step)…", activity: nil, at: lastDrawn)
    }

    /// Stops the timer and erases the line (before the command prints anything).
    func stop() {
        lock.lock()
        stopped = true
        pulse.stop()
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
        output.clearProgress()
    }

    /// Draws `text` and remembers it for the timer; starts the timer on the first draw. Called
    /// with the lock held.
    private func draw(_ text: String, activity: TransferActivity?, at now: Double) {
        guard !stopped else { return }
        draws += 1
        pulse.drew(text, activity: activity, at: now)
        ProgressLine.draw(text, on: output)
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 0.2, repeating: 0.2)
        timer.setEventHandler { [weak self] in self?.beat() }
        self.timer = timer
        timer.resume()
    }

    /// The timer's tick: redraws a line silent for a second.
    private func beat() {
        lock.lock()
        defer { lock.unlock() }
        guard timer != nil, let text = pulse.due(at: clock()) else { return }
        ProgressLine.draw(text, on: output)
    }

    /// Takes one report of a transfer and redraws when it is time to.
    func update(_ update: TransferActivity) {
        guard update.total > 0 || update.phase == .counting else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        var due = now - lastDrawn >= ProgressLine.interval
        if update.phase != phase {
            (phase, phaseStarted, firstCount, firstBytes, drewLast, due) = (update.phase, now, update.done, update.bytes, false, true)
        }
        let last = update.total > 0 && update.done >= update.total
        if last && !drewLast { due = true }
        guard due, !(last && drewLast) else { return }
        drewLast = last
        lastDrawn = now
        draw(Self.text(update, elapsed: now - phaseStarted, firstCount: firstCount, firstBytes: firstBytes), activity: update, at: now)
    }

    /// `receiving: 5976/10015 objects (59%), 7.7 MiB, 2.1 MiB/s, about 3 s left`.
    static func text(_ update: TransferActivity, elapsed: Double, firstCount: Int, firstBytes: Int) -> String {
        if update.phase == .counting { return "counting: \(update.done) objects" }
        let noun = update.phase == .resolving ? "deltas" : "objects"
        var text = "\(update.phase.rawValue): " + ProgressLine.count(update.done, of: update.total, noun)
        if update.bytes >= 1024 { text += ", " + size(Double(update.bytes)) }
        guard elapsed >= 0.5 else { return text }
        if update.bytes > firstBytes { text += ", " + size(Double(update.bytes - firstBytes) / elapsed) + "/s" }
        return text + ProgressLine.timeLeft(count: update.done, total: update.total,
                                            done: update.done - firstCount, elapsed: elapsed)
    }

    private static func size(_ bytes: Double) -> String {
        if bytes >= 1_048_576 { return String(format: "%.1f MiB", bytes / 1_048_576) }
        return String(format: "%.0f KiB", bytes / 1024)
    }
}
