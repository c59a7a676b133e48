import Foundation
@testable import QuireGit
import QuireKit
import Testing

/// The classification front ends map to messages and exit codes: by libgit2's code and class,
/// and what QuireGit decided in its callbacks.
@Suite struct GitFailureTests {
    private func kind(_ function: String, _ code: GitError.Code, _ errorClass: String = "none", _ message: String = "failed",
                      _ reason: GitError.Reason? = nil) -> GitFailure.Kind? {
        GitFailure(GitError(function: function, code: code, errorClass: errorClass, message: message, reason: reason))?.kind
    }

    @Test func transferFailuresAreClassified() {
        #expect(kind("git_remote_fetch", .other(-1), "net", "failed to connect") == .offline)
        #expect(kind("git_remote_fetch", .timedOut) == .offline)
        #expect(kind("git_remote_fetch", .other(-1), "net", "unsupported URL protocol 'foo'", .unsupportedTransport) == .unknownTransport)
        // libgit2's words alone decide nothing: the same text without QuireGit's reason is a
        // network failure like any other.
        #expect(kind("git_remote_connect", .other(-1), "net", "unsupported URL protocol") == .offline)
        #expect(kind("dlopen libgit2.so.1.5", .other(-1), "os", "cannot load libgit2", .libraryUnavailable) == .libraryUnavailable)
        #expect(kind("git_remote_fetch", .notFound) == .repositoryNotFound(serverAdvice: nil))
        #expect(kind("git_remote_push", .pushRejected) == .pushRejected)
        #expect(kind("credentials", .auth, "ssh", "no key", .noCredentials) == .authenticationFailed(.missing(ssh: true)))
        #expect(kind("credentials", .auth, "http", "refused", .credentialsRefused) == .authenticationFailed(.refused(ssh: false)))
        #expect(kind("git_remote_fetch", .auth) == .authenticationFailed(.unknown))
        // An https server's refusal (a 403 on a push): its own case, which gets no ssh hint.
        #expect(kind("git_remote_push", .auth, "http", "unexpected http status code: 403") == .authenticationFailed(.httpRefused))
        #expect(kind("certificate_check", .certificate, "ssl", "untrusted", .untrustedCertificate(fingerprint: "SHA256:AB")) == .certificateRefused(.untrustedCertificate(fingerprint: "SHA256:AB")))
        #expect(kind("certificate_check", .certificate, "ssh", "changed", .changedHostKey) == .certificateRefused(.changedHostKey))
        #expect(kind("git_index_read", .other(-1), "index") == .other)
    }

    @Test func theDetailNamesTheMessageAndFunction() {
        let failure = GitFailure(GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "net", message: "no route"))
        #expect(failure?.detail == "no route (git_remote_fetch)")
        #expect(GitFailure(CocoaError(.fileNoSuchFile)) == nil)
    }

    @Test func progressReportsBecomeActivities() {
        let progress = TransferProgress(phase: .resolving, totalObjects: 10, receivedObjects: 4, indexedObjects: 4, bytes: 900)
        #expect(TransferActivity(progress) == TransferActivity(phase: .resolving, total: 10, done: 4, bytes: 900))
        #expect(TransferActivity.Phase.resolving.rawValue == "resolving deltas")
    }
}
