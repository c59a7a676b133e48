import Foundation
import Testing
@testable import QuireCore

/// `QUIRE_FAULT` is read in one place: the sync, the clone and note edits see the same points.
@Suite struct FaultInjectionTests {
    @Test func readsPointsAndActions() {
        let faults = FaultInjection(environment: ["QUIRE_FAULT": "before-push,clone-after-fetch:stop,after-commit:kill,odd:what,before-push:stop"])
        #expect(faults.points == ["before-push": .fail, "clone-after-fetch": .stop, "after-commit": .kill, "odd": .fail])
        #expect(FaultInjection(environment: [:]).points.isEmpty)
        #expect(FaultInjection(environment: ["QUIRE_FAULT": ""]).points.isEmpty)
        // A point in a list is seen (note edits once saw only the variable's whole value).
        #expect(FaultInjection(environment: ["QUIRE_FAULT": "before-push,before-note-write:stop"]).points["before-note-write"] == .stop)
    }

    @Test func failsOnlyAtANamedPoint() {
        let faults = FaultInjection(environment: ["QUIRE_FAULT": "before-push"])
        #expect(faults.trigger("before-push"))
        #expect(!faults.trigger("after-fetch"))
    }
}
