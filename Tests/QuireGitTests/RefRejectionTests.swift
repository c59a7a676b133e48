@testable import QuireGit
import Testing

/// A reference a server refused is read as a lost race (the branch moved since the push read it:
/// fetch, merge, push again) or as the server's own rule. The texts are git 2.39 receive-pack's,
/// as a git daemon sends them: the status for the reference, and its sideband lines.
struct RefRejectionTests {
    static let main = "refs/heads/main"

    @Test func aBranchThatMovedUnderThePushIsARace() {
        let failed = RefRejection(reference: Self.main, status: "failed to update ref")
        // Another device's push landed between the advertisement and this push's update.
        #expect(failed.remoteMoved(serverLines: [
            "error: cannot lock ref 'refs/heads/main': is at c1dc2fcf5d445c21c9834988ff1bcd9e7e2d71e4"
                + " but expected 1fdb6e382fc70d0ddc47f1dd53437a53ab5a669b",
        ]))
        // The first push of a branch that another device made meanwhile.
        #expect(failed.remoteMoved(serverLines: ["error: cannot lock ref 'refs/heads/main': reference already exists"]))
        // Another push held the branch's lock at that moment.
        #expect(failed.remoteMoved(serverLines: [
            "error: cannot lock ref 'refs/heads/main': Unable to create '/srv/repos/vault.git/refs/heads/main.lock': File exists.",
        ]))
        // receive.denyNonFastForwards, and older servers' status for a lock that failed.
        #expect(RefRejection(reference: Self.main, status: "non-fast-forward").remoteMoved(serverLines: []))
        #expect(RefRejection(reference: Self.main, status: "failed to lock").remoteMoved(serverLines: []))
    }

    @Test func theServersOwnRuleIsNotARace() {
        // A hook refuses, whatever it printed.
        let hook = RefRejection(reference: Self.main, status: "pre-receive hook declined")
        #expect(!hook.remoteMoved(serverLines: ["protected branch"]))
        #expect(!hook.remoteMoved(serverLines: ["cannot lock ref 'refs/heads/main': is at a but expected b"]))
        #expect(!RefRejection(reference: Self.main, status: "deny updating a hidden ref").remoteMoved(serverLines: []))
        #expect(!RefRejection(reference: Self.main, status: "branch is currently checked out").remoteMoved(serverLines: []))
        // An update that failed for another reason: the same push fails the same way again.
        let failed = RefRejection(reference: Self.main, status: "failed to update ref")
        #expect(!failed.remoteMoved(serverLines: []))
        #expect(!failed.remoteMoved(serverLines: [
            "error: cannot lock ref 'refs/heads/main': Unable to create '/srv/repos/vault.git/refs/heads/main.lock': Permission denied",
        ]))
    }
}
