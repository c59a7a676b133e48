import Foundation
import QuireTestSupport
@testable import QuireGit
import Testing

@Suite(.serialized) struct RemoteTests {
    private var noCredentials: TransferOptions {
        var credentials = Credentials(environment: ["HOME": "/nonexistent-home"])
        credentials.useSSHAgent = false
        return TransferOptions(credentials: credentials, timeout: 30)
    }

    private func makeClone(_ temp: TemporaryDirectory, _ name: String, url: String) throws -> Repository {
        let repo = try Repository.create(at: temp.path(name))
        try repo.createRemote(named: "origin", url: url)
        return repo
    }

    @Test func pushAndFetchThroughLocalBareRepository() throws {
        let temp = try TemporaryDirectory()
        _ = try Repository.create(at: temp.path("remote.git"), bare: true)
        let url = temp.path("remote.git").path
        let a = try makeClone(temp, "a", url: url)
        try Fixture.write("from a\n", to: "note.md", in: temp.path("a"))
        let commitA = try Fixture.commitAll(a, "a1", at: 0)
        let origin = try #require(try a.remote(named: "origin"))
        #expect(origin.url == url)
        try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], options: noCredentials)

        let b = try makeClone(temp, "b", url: url)
        let remoteB = try #require(try b.remote(named: "origin"))
        let progress = ProgressLog()
        var options = noCredentials
        options.progress = { progress.append($0) }
        try remoteB.fetch(options: options)
        #expect(try b.referenceTarget("refs/remotes/origin/main") == commitA)
        #expect(progress.count > 0)
        #expect(try Fixture.git(["fsck", "--strict"], in: temp.path("remote.git")).isEmpty)
    }

    @Test func nonFastForwardPushIsRejected() throws {
        let temp = try TemporaryDirectory()
        _ = try Repository.create(at: temp.path("remote.git"), bare: true)
        let url = temp.path("remote.git").path
        let a = try makeClone(temp, "a", url: url)
        try Fixture.write("a\n", to: "a.md", in: temp.path("a"))
        try Fixture.commitAll(a, "a", at: 0)
        try #require(try a.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"], options: noCredentials)
        let b = try makeClone(temp, "b", url: url)
        try Fixture.write("b\n", to: "b.md", in: temp.path("b"))
        try Fixture.commitAll(b, "b", at: 10)
        do {
            try #require(try b.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                             options: noCredentials)
            Issue.record("push should be rejected")
        } catch let error as GitError {
            #expect(error.category == .pushRejected)
        }
    }

    /// libgit2's local transport moves the remote branch without checking its old value; a
    /// push that expected another tip (a device that pushed in between) must be refused, not
    /// replace that device's commits.
    @Test func localPushMovesTheBranchOnlyFromTheExpectedTip() throws {
        let temp = try TemporaryDirectory()
        let bare = try Repository.create(at: temp.path("remote.git"), bare: true)
        let url = temp.path("remote.git").path
        let a = try makeClone(temp, "a", url: url)
        try Fixture.write("a\n", to: "a.md", in: temp.path("a"))
        let first = try Fixture.commitAll(a, "a", at: 0)
        try #require(try a.remote(named: "origin")).push(branch: "main", expected: nil, options: noCredentials)
        #expect(try bare.referenceTarget("refs/heads/main") == first)
        try Fixture.write("a2\n", to: "a.md", in: temp.path("a"))
        let second = try Fixture.commitAll(a, "a2", at: 10)
        let origin = try #require(try a.remote(named: "origin"))
        do {
            try origin.push(branch: "main", expected: second, options: noCredentials)
            Issue.record("a push from a stale tip must be refused")
        } catch let error as GitError {
            #expect(error.category == .pushRejected, "\(error)")
        }
        #expect(try bare.referenceTarget("refs/heads/main") == first)
        do {
            try origin.push(branch: "refs/heads/main", expected: nil, options: noCredentials)
            Issue.record("creating a branch that exists must be refused")
        } catch let error as GitError {
            #expect(error.category == .pushRejected, "\(error)")
        }
        try origin.push(branch: "refs/heads/main", expected: first, options: noCredentials)
        #expect(try bare.referenceTarget("refs/heads/main") == second)
        #expect(try bare.references(matching: "refs/quire/*").isEmpty)
        #expect(try Fixture.git(["fsck", "--strict"], in: temp.path("remote.git")).isEmpty)
    }

    @Test func missingLocalRepositoryIsNotFound() throws {
        let temp = try TemporaryDirectory()
        let a = try makeClone(temp, "a", url: temp.path("absent.git").path)
        do {
            try #require(try a.remote(named: "origin")).fetch(options: noCredentials)
            Issue.record("fetch should fail")
        } catch let error as GitError {
            #expect(error.category == .repositoryNotFound, "\(error) \(error.errorClass) \(error.code)")
        }
    }

    /// A scheme libgit2 has no transport for is QuireGit's own finding (a reason), for fetch and
    /// push alike; no connection is tried and libgit2's wording is not read.
    @Test func unsupportedSchemeIsNamedByItsReason() throws {
        let temp = try TemporaryDirectory()
        let a = try makeClone(temp, "a", url: "gopher://example.invalid/notes.git")
        try Fixture.write("x\n", to: "note.md", in: temp.path("a"))
        _ = try Fixture.commitAll(a, "a1", at: 0)
        let origin = try #require(try a.remote(named: "origin"))
        for attempt in ["fetch", "push"] {
            do {
                if attempt == "fetch" {
                    try origin.fetch(options: noCredentials)
                } else {
                    try origin.push(refspecs: ["refs/heads/main:refs/heads/main"], options: noCredentials)
                }
                Issue.record("\(attempt) should fail")
            } catch let error as GitError {
                #expect(error.reason == .unsupportedTransport, "\(attempt): \(error)")
                #expect(error.message.contains("gopher"), "\(attempt): \(error)")
            }
        }
        // Every scheme libgit2 does have passes the check (and fails later, if at all, on the network).
        for scheme in Remote.supportedSchemes where scheme != "file" {
            #expect(throws: Never.self) { try Remote.checkAddress("\(scheme)://example.invalid/x.git", "git_remote_fetch") }
        }
    }

    @Test func gitDaemonPushFetchAndHookRejection() throws {
        let temp = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: temp.path("srv"), withIntermediateDirectories: true)
        _ = try Repository.create(at: temp.path("srv/vault.git"), bare: true)
        let daemon = try GitDaemon(base: temp.path("srv"))
        let url = "git://127.0.0.1:\(daemon.port)/vault.git"
        let a = try makeClone(temp, "a", url: url)
        try Fixture.write("over the wire\n", to: "n.md", in: temp.path("a"))
        let first = try Fixture.commitAll(a, "n", at: 0)
        try #require(try a.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                         options: noCredentials)
        #expect(try Fixture.git(["rev-parse", "refs/heads/main"], in: temp.path("srv/vault.git"))
                    .trimmingCharacters(in: .whitespacesAndNewlines) == first.hex)
        let b = try makeClone(temp, "b", url: url)
        try #require(try b.remote(named: "origin")).fetch(options: noCredentials)
        #expect(try b.referenceTarget("refs/remotes/origin/main") == first)

        // A server-side hook refuses the update: git_remote_push returns 0, the callback reports it.
        let hook = temp.path("srv/vault.git/hooks/pre-receive")
        try ExecutableScript.write("#!/bin/sh\necho no >&2\nexit 1\n", to: hook)
        try Fixture.write("second\n", to: "n.md", in: temp.path("a"))
        try Fixture.commitAll(a, "n2", at: 10)
        do {
            try #require(try a.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                             options: noCredentials)
            Issue.record("push should be rejected by the hook")
        } catch let error as GitError {
            #expect(error.code == .pushRejected)
            #expect(error.category == .pushRejected)
        }
        #expect(try Fixture.git(["fsck", "--strict"], in: temp.path("srv/vault.git")).isEmpty)
    }

    @Test func closedPortIsOffline() throws {
        let temp = try TemporaryDirectory()
        let a = try makeClone(temp, "a", url: "git://127.0.0.1:\(Fixture.freePort())/vault.git")
        do {
            try #require(try a.remote(named: "origin")).fetch(options: noCredentials)
            Issue.record("fetch should fail")
        } catch let error as GitError {
            #expect(error.category == .offline)
        }
    }

    @Test func stalledServerTimesOut() throws {
        let temp = try TemporaryDirectory()
        let listener = try SilentListener()
        let a = try makeClone(temp, "a", url: "git://127.0.0.1:\(listener.port)/vault.git")
        var options = noCredentials
        options.timeout = 1
        let started = Date()
        do {
            try #require(try a.remote(named: "origin")).fetch(options: options)
            Issue.record("fetch should time out")
        } catch let error as GitError {
            #expect(error.code == .timedOut)
            #expect(error.category == .offline)
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func knownHostsMessagesRedactSecrets() {
        #expect(Credentials.redact("https://user:secret@example.com/v.git") == "https://user:***@example.com/v.git")
        #expect(Credentials.redact("git@example.com:v.git") == "git@example.com:v.git")
        #expect(Credentials.redact("https://ghp_Token0@example.com/v.git") == "https://***@example.com/v.git")
        #expect(Credentials.redact("no access (http://ghp_T@h:80/v.git): x") == "no access (http://***@h:80/v.git): x")
        #expect(Credentials.redact("ssh://me@nas.local/v.git") == "ssh://me@nas.local/v.git")
        #expect(Credentials.redact("https://***@h/v.git") == "https://***@h/v.git")
    }
}

/// Collects progress reports from libgit2's thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [TransferProgress] = []
    func append(_ item: TransferProgress) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return items.count
    }
}

/// A loopback socket that accepts connections into its backlog and never answers.
final class SilentListener {
    let fd: Int32
    let port: Int

    init() throws {
        (fd, port) = Fixture.boundSocket()
        listen(fd, 8)
    }

    deinit {
        close(fd)
    }
}
