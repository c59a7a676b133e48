/// What a progress line shows while a transfer says nothing: libgit2 reports a push's sending
/// at most twice a second and nothing at all while the server stores the pack it received (or
/// while a local step runs), so the line is redrawn from a timer once it has been silent for
/// `interval`, with the seconds the step has taken: `sending: 10016/10016 objects (100%),
/// 11.4 MiB — the server is storing them, 4 s`. A front end keeps one and asks `due(at:)`.
public struct TransferPulse: Sendable {
    /// How long a line stays unchanged before the timer redraws it (seconds; with a timer
    /// ticking every fifth of a second, no line stays for more than a second).
    public static let interval = 0.75

    private var text: String?
    private var activity: TransferActivity?
    private var stepStarted = 0.0
    private var lastDrawn = 0.0

    /// An idle pulse: nothing shown yet.
    public init() {}

    /// Records that `text` was drawn at `now`; `activity` is the report it shows (nil for a
    /// step announced by name, e.g. `pushing…`). A new step or phase restarts the seconds.
    public mutating func drew(_ text: String, activity: TransferActivity?, at now: Double) {
        if activity?.phase != self.activity?.phase || (activity == nil && text != self.text) || self.text == nil {
            stepStarted = now
        }
        self.text = text
        self.activity = activity
        lastDrawn = now
    }

    /// The text to draw at `now`, when the line has been silent for `interval`; nil otherwise
    /// (also when nothing was shown, or after `stop()`).
    public mutating func due(at now: Double) -> String? {
        guard let text, now - lastDrawn >= Self.interval else { return nil }
        let seconds = Int(now - stepStarted)
        lastDrawn = now
        if let activity, activity.phase == .sending, activity.total > 0, activity.done >= activity.total {
            return "\(text) — the server is storing them, \(seconds) s"
        }
        return "\(text) \(seconds) s"
    }

    /// Forgets what was shown: nothing is due until the next `drew`.
    public mutating func stop() {
        text = nil
        activity = nil
    }
}
