import Testing
@testable import QuireCore

/// git's racily-clean window (`FileStamp.racyWindow`): 50 ms, or the milliseconds of the
/// `QUIRE_RACY_WINDOW_MS` test hook (0 lets an end-to-end test trust what it just wrote).
@Suite struct RacyWindowTests {
    @Test func theWindowIsFiftyMillisecondsUnlessTheHookSetsIt() {
        #expect(FileStamp.racyWindow(environment: [:]) == 50_000_000)
        #expect(FileStamp.racyWindow(environment: ["QUIRE_RACY_WINDOW_MS": "0"]) == 0)
        #expect(FileStamp.racyWindow(environment: ["QUIRE_RACY_WINDOW_MS": "250"]) == 250_000_000)
        for unreadable in ["", "-1", "1.5", "ten", "10001"] {
            #expect(FileStamp.racyWindow(environment: ["QUIRE_RACY_WINDOW_MS": unreadable]) == 50_000_000, "\(unreadable)")
        }
    }

    @Test func aStampIsRacyWithinTheWindowBeforeNow() {
        let stamp = FileStamp(size: 1, modifiedNanoseconds: 1_000_000_000, changedNanoseconds: 900_000_000, inode: 7)
        #expect(stamp.isRacy(now: 1_000_000_000 + FileStamp.racyWindow))
        #expect(!stamp.isRacy(now: 1_000_000_001 + FileStamp.racyWindow))
    }
}
