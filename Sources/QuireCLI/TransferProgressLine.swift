import Foundation
import QuireKit

/// Draws a fetch or push on one line of a terminal: the phase by name with its counts, the
/// bytes moved, the rate and the time left — at most 10 times a second (plus each phase's first
/// and last step), so a clone of 10,000 objects writes a few dozen lines, not one per object.
/// The command erases it (`Output.clearProgress`) when the transfer ends or fails.
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
        draws += 1
        ProgressLine.draw("\(step)…", on: output)
    }

    /// Takes one report of a transfer and redraws when it is time to.
    func update(_ update: TransferActivity) {
        guard update.total > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        var due = now - lastDrawn >= ProgressLine.interval
        if update.phase != phase {
            (phase, phaseStarted, firstCount, firstBytes, drewLast, due) = (update.phase, now, update.done, update.bytes, false, true)
        }
        let last = update.done >= update.total
        if last && !drewLast { due = true }
        guard due, !(last && drewLast) else { return }
        drewLast = last
        lastDrawn = now
        draws += 1
        ProgressLine.draw(Self.text(update, elapsed: now - phaseStarted, firstCount: firstCount, firstBytes: firstBytes), on: output)
    }

    /// `receiving: 5976/10015 objects (59%), 7.7 MiB, 2.1 MiB/s, about 3 s left`.
    static func text(_ update: TransferActivity, elapsed: Double, firstCount: Int, firstBytes: Int) -> String {
        let noun = update.phase == .resolving ? "deltas" : "objects"
        var text = "\(update.phase.rawValue): " + ProgressLine.count(update.done, of: update.total, noun)
        if update.bytes > 0 { text += ", " + size(Double(update.bytes)) }
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
