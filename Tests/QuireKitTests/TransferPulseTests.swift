import QuireKit
import Testing

/// The progress line's pulse (issue 36): a line silent for `interval` is redrawn with the
/// seconds its step has taken, so a push never looks frozen while the server stores its pack.
@Suite struct TransferPulseTests {
    @Test func aSilentStepIsRedrawnWithItsSecondsAndNothingIsDueSooner() {
        var pulse = TransferPulse()
        #expect(pulse.due(at: 5) == nil, "nothing shown, nothing due")
        pulse.drew("committing…", activity: nil, at: 10)
        #expect(pulse.due(at: 10.5) == nil)
        #expect(pulse.due(at: 11) == "committing… 1 s")
        #expect(pulse.due(at: 11.5) == nil, "redrawn at 11")
        #expect(pulse.due(at: 13.2) == "committing… 3 s")
        // A new phase starts its own seconds; a report of the same phase keeps them.
        let sending = TransferActivity(phase: .sending, total: 100, done: 40, bytes: 4096)
        pulse.drew("sending: 40/100 objects (40%)", activity: sending, at: 20)
        pulse.drew("sending: 60/100 objects (60%)", activity: TransferActivity(phase: .sending, total: 100, done: 60, bytes: 8192), at: 21)
        #expect(pulse.due(at: 22) == "sending: 60/100 objects (60%) 2 s")
        // All sent: the wait is the server's.
        pulse.drew("sending: 100/100 objects (100%)", activity: TransferActivity(phase: .sending, total: 100, done: 100, bytes: 9000), at: 23)
        #expect(pulse.due(at: 30) == "sending: 100/100 objects (100%) — the server is storing them, 10 s")
        pulse.stop()
        #expect(pulse.due(at: 40) == nil)
    }
}
