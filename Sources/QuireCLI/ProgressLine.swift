import Foundation

/// What every progress line of the CLI shares (transfers, indexing): the drawing over one line
/// of the terminal, the counts with their share, and the time left at the rate so far.
enum ProgressLine {
    /// How often a line is redrawn at most (seconds between draws).
    static let interval = 0.1

    /// The monotonic clock, in seconds from a fixed origin.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Draws `text` over the current line of standard error (`Output.clearProgress` erases it).
    static func draw(_ text: String, on output: Output) {
        output.progress("\r" + text + "\u{1B}[K")
    }

    /// `5976/10015 objects (59%)`.
    static func count(_ count: Int, of total: Int, _ noun: String) -> String {
        "\(count)/\(total) \(noun) (\(total > 0 ? count * 100 / total : 0)%)"
    }

    /// `, about 3 s left` when `done` items took `elapsed` seconds and `count` of `total` are
    /// done; empty when nothing was done yet or all is.
    static func timeLeft(count: Int, total: Int, done: Int, elapsed: Double) -> String {
        guard done > 0, count < total, elapsed > 0 else { return "" }
        let left = Double(total - count) / (Double(done) / elapsed)
        return ", about \(max(1, Int(left.rounded()))) s left"
    }
}
