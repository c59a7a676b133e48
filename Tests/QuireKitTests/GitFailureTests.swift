@testable import QuireGit
import QuireKit
import XCTest

/// The classification front ends map to messages and exit codes: by libgit2's code and class,
/// and what QuireGit decided in its callbacks.
final class GitFailureTests: XCTestCase {
    private func kind(_ function: String, _ code: GitError.Code, _ errorClass: String = "none", _ message: String = "failed",
                      _ reason: GitError.Reason? = nil) -> GitFailure.Kind? {
        GitFailure(GitError(function: function, code: code, errorClass: errorClass, message: message, reason: reason))?.kind
    }

    func testTransferFailuresAreClassified() {
        XCTAssertEqual(kind("git_remote_fetch", .other(-1), "net", "failed to connect"), .offline)
        XCTAssertEqual(kind("git_remote_fetch", .timedOut), .offline)
        XCTAssertEqual(kind("git_remote_fetch", .other(-1), "net", "unsupported URL protocol 'foo'", .unsupportedTransport),
                       .unknownTransport)
        // libgit2's words alone decide nothing: the same text without QuireGit's reason is a
        // network failure like any other.
        XCTAssertEqual(kind("git_remote_connect", .other(-1), "net", "unsupported URL protocol"), .offline)
        XCTAssertEqual(kind("dlopen libgit2.so.1.5", .other(-1), "os", "cannot load libgit2", .libraryUnavailable),
                       .libraryUnavailable)
        XCTAssertEqual(kind("git_remote_fetch", .notFound), .repositoryNotFound(serverAdvice: nil))
        XCTAssertEqual(kind("git_remote_push", .pushRejected), .pushRejected)
        XCTAssertEqual(kind("credentials", .auth, "ssh", "no key", .noCredentials), .authenticationFailed(.missing(ssh: true)))
        XCTAssertEqual(kind("credentials", .auth, "http", "refused", .credentialsRefused), .authenticationFailed(.refused(ssh: false)))
        XCTAssertEqual(kind("git_remote_fetch", .auth), .authenticationFailed(.unknown))
        // An https server's refusal (a 403 on a push): its own case, which gets no ssh hint.
        XCTAssertEqual(kind("git_remote_push", .auth, "http", "unexpected http status code: 403"), .authenticationFailed(.httpRefused))
        XCTAssertEqual(kind("certificate_check", .certificate, "ssl", "untrusted", .untrustedCertificate(fingerprint: "SHA256:AB")),
                       .certificateRefused(.untrustedCertificate(fingerprint: "SHA256:AB")))
        XCTAssertEqual(kind("certificate_check", .certificate, "ssh", "changed", .changedHostKey), .certificateRefused(.changedHostKey))
        XCTAssertEqual(kind("git_index_read", .other(-1), "index"), .other)
    }

    func testTheDetailNamesTheMessageAndFunction() {
        let failure = GitFailure(GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "net", message: "no route"))
        XCTAssertEqual(failure?.detail, "no route (git_remote_fetch)")
        XCTAssertNil(GitFailure(CocoaError(.fileNoSuchFile)))
    }

    func testProgressReportsBecomeActivities() {
        let progress = TransferProgress(phase: .resolving, totalObjects: 10, receivedObjects: 4, indexedObjects: 4, bytes: 900)
        XCTAssertEqual(TransferActivity(progress), TransferActivity(phase: .resolving, total: 10, done: 4, bytes: 900))
        XCTAssertEqual(TransferActivity.Phase.resolving.rawValue, "resolving deltas")
    }
}
