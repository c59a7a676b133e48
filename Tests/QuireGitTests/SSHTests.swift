import Foundation
import QuireGit
import Testing

/// A loopback `sshd` with a temporary host key that accepts one user key for root.
final class SSHServer: LoopbackServer {
    let hostPublicKey: String

    init(directory: URL, authorizedKey: String) throws {
        let hostKey = directory.appendingPathComponent("host_ed25519")
        try Fixture.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey.path])
        hostPublicKey = try String(contentsOf: URL(fileURLWithPath: hostKey.path + ".pub"), encoding: .utf8)
        try Data(authorizedKey.utf8).write(to: directory.appendingPathComponent("authorized_keys"))
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let configURL = directory.appendingPathComponent("sshd_config")
        try super.init(executable: "/usr/sbin/sshd", arguments: { port in
            let config = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKey.path)
                PidFile \(directory.appendingPathComponent("sshd.pid").path)
                UsePAM no
                StrictModes no
                PermitRootLogin yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PubkeyAuthentication yes
                AuthorizedKeysFile \(directory.appendingPathComponent("authorized_keys").path)
                """
            try? Data(config.utf8).write(to: configURL)
            return ["-D", "-e", "-f", configURL.path]
        })
    }
}

@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/usr/sbin/sshd") && getuid() == 0,
                             "needs root and /usr/sbin/sshd (make test-deps installs openssh-server)"))
struct SSHTests {
    /// A home with `.ssh/id_ed25519` and a known_hosts file holding `knownHosts`.
    func makeHome(_ temp: TemporaryDirectory) throws -> URL {
        let home = temp.path("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try Fixture.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f",
                                                 home.appendingPathComponent(".ssh/id_ed25519").path])
        return home
    }

    func options(home: URL) -> TransferOptions {
        var credentials = Credentials(environment: ["HOME": home.path])
        credentials.useSSHAgent = false
        return TransferOptions(credentials: credentials, timeout: 30)
    }

    func setUp(_ temp: TemporaryDirectory) throws -> (SSHServer, URL, Repository, String) {
        let home = try makeHome(temp)
        let userKey = try String(contentsOf: home.appendingPathComponent(".ssh/id_ed25519.pub"), encoding: .utf8)
        try FileManager.default.createDirectory(at: temp.path("sshd"), withIntermediateDirectories: true)
        let server = try SSHServer(directory: temp.path("sshd"), authorizedKey: userKey)
        _ = try Repository.create(at: temp.path("remote.git"), bare: true)
        let repo = try Repository.create(at: temp.path("work"))
        let url = "ssh://root@127.0.0.1:\(server.port)\(temp.path("remote.git").path)"
        try repo.createRemote(named: "origin", url: url)
        try Fixture.write("over ssh\n", to: "n.md", in: temp.path("work"))
        try Fixture.commitAll(repo, "n", at: 0)
        return (server, home, repo, url)
    }

    func trust(_ server: SSHServer, in home: URL) throws {
        let fields = server.hostPublicKey.split(separator: " ")
        let line = "[127.0.0.1]:\(server.port) \(fields[0]) \(fields[1])\n"
        try Data(line.utf8).write(to: home.appendingPathComponent(".ssh/known_hosts"))
    }

    @Test func pushAndFetchWithKeyAndKnownHost() throws {
        let temp = try TemporaryDirectory()
        let (server, home, repo, url) = try setUp(temp)
        try trust(server, in: home)
        try #require(try repo.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                            options: options(home: home))
        let clone = try Repository.clone(from: url, to: temp.path("clone"), options: options(home: home))
        #expect(try clone.headCommitID() == repo.headCommitID())
    }

    @Test func hashedKnownHostsEntryIsTrusted() throws {
        let temp = try TemporaryDirectory()
        let (server, home, repo, _) = try setUp(temp)
        try trust(server, in: home)
        try Fixture.run("/usr/bin/ssh-keygen", ["-H", "-f", home.appendingPathComponent(".ssh/known_hosts").path])
        let text = try String(contentsOf: home.appendingPathComponent(".ssh/known_hosts"), encoding: .utf8)
        #expect(text.hasPrefix("|1|"))
        try #require(try repo.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                            options: options(home: home))
    }

    @Test func unknownHostIsRefusedWithFingerprint() throws {
        let temp = try TemporaryDirectory()
        let (server, home, repo, _) = try setUp(temp)
        do {
            try #require(try repo.remote(named: "origin")).fetch(options: options(home: home))
            Issue.record("an unknown host must be refused")
        } catch let error as GitError {
            #expect(error.code == .certificate)
            #expect(error.category == .authentication)
            #expect(error.message.contains("SHA256:"))
            #expect(error.message.contains("ssh-keyscan -p \(server.port) 127.0.0.1"))
        }
    }

    @Test func missingKeyIsAuthenticationFailure() throws {
        let temp = try TemporaryDirectory()
        let (server, home, repo, _) = try setUp(temp)
        try trust(server, in: home)
        try FileManager.default.removeItem(at: home.appendingPathComponent(".ssh/id_ed25519"))
        do {
            try #require(try repo.remote(named: "origin")).fetch(options: options(home: home))
            Issue.record("fetch without a key must fail")
        } catch let error as GitError {
            #expect(error.category == .authentication)
        }
    }
}
