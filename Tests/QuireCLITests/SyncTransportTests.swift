import Foundation
import QuireTestSupport
import Testing

/// Sync through real servers on loopback: git daemon, sshd, nginx + fcgiwrap (git http-backend),
/// with and without authentication.
@Suite struct SyncTransportTests {
    /// A and B sync through `url` (both devices with `environment`) and converge.
    static func roundTrip(url: String, bare: URL, environment: [String: String] = [:]) throws -> (Device, Device) {
        let world = try SyncWorld(bare: bare, url: url)
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base], environment: environment)
        let b = try world.clone("b", environment: environment)
        try exchangeEdits(a, b, bare: bare, environment: environment)
        return (a, b)
    }

    /// A and B, both holding `SyncMergeTests.base` as one.md, each edit a paragraph of it and
    /// converge through the remote (`bare` checked with fsck).
    static func exchangeEdits(_ a: Device, _ b: Device, bare: URL, environment: [String: String]) throws {
        #expect(try b.read("one.md") == SyncMergeTests.base)
        let fromA = SyncMergeTests.base.replacingOccurrences(of: "Para one.", with: "Para one, A.")
            .replacingOccurrences(of: "10:00", with: "11:00")
        let fromB = SyncMergeTests.base.replacingOccurrences(of: "Para three.", with: "Para three, B.")
            .replacingOccurrences(of: "10:00", with: "11:30")
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z", environment: environment)
        try b.sync(now: "2026-11-29T12:01:00Z", environment: environment)
        try a.sync(now: "2026-11-29T12:02:00Z", environment: environment)
        #expect(try a.read("one.md") == fromA.replacingOccurrences(of: "Para three.", with: "Para three, B.")
            .replacingOccurrences(of: "11:00", with: "11:30"))
        #expect(try a.files() == b.files())
        #expect(try gitCLI(["fsck"], in: bare).code == 0)
    }

    @Test func gitDaemon() throws {
        let server = try GitServer.start("daemon")
        defer { server.stop() }
        let bare = try server.makeRepository()
        _ = try Self.roundTrip(url: server.baseURL + "vault.git", bare: bare)
    }

    /// A HOME holding the server's client key and, when `trusted`, its known_hosts.
    static func sshHome(_ server: GitServer, trusted: Bool) throws -> URL {
        let home = try Harness.temporaryDirectory("quire-ssh-home")
        let ssh = home.appendingPathComponent(".ssh")
        try FileManager.default.createDirectory(at: ssh, withIntermediateDirectories: true)
        for name in ["id_ed25519", "id_ed25519.pub"] + (trusted ? ["known_hosts"] : []) {
            try FileManager.default.copyItem(at: server.directory.appendingPathComponent(name), to: ssh.appendingPathComponent(name))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: ssh.appendingPathComponent("id_ed25519").path)
        return home
    }

    @Test func sshWithKeyAndKnownHosts() throws {
        let server = try GitServer.start("ssh")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let home = try Self.sshHome(server, trusted: true)
        let (a, _) = try Self.roundTrip(url: server.baseURL + "vault.git", bare: bare, environment: ["HOME": home.path])

        // Another key the server does not know: authentication failed, exit 4.
        let stranger = try Harness.temporaryDirectory("quire-ssh-stranger")
        try FileManager.default.createDirectory(at: stranger.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.appendingPathComponent(".ssh/known_hosts"),
                                         to: stranger.appendingPathComponent(".ssh/known_hosts"))
        try #require(try spawnAndWait(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "",
                                       "-f", stranger.appendingPathComponent(".ssh/id_ed25519").path]) == 0)
        let denied = try a.run(["sync"], environment: ["HOME": stranger.path])
        #expect(denied.code == 4, "\(denied.stderr)")
        #expect(denied.stderr.contains("authentication failed: the server refused ~/.ssh/id_ed25519"), "\(denied.stderr)")
        #expect(denied.stderr.contains("public key"), "\(denied.stderr)")
        #expect(!denied.stderr.contains("QUIRE_GIT_TOKEN"), "\(denied.stderr)")

        // No key at all reads differently from a key refused.
        try FileManager.default.removeItem(at: stranger.appendingPathComponent(".ssh/id_ed25519"))
        let keyless = try a.run(["sync"], environment: ["HOME": stranger.path])
        #expect(keyless.code == 4, "\(keyless.stderr)")
        #expect(keyless.stderr.contains("authentication failed: no credentials for this remote"), "\(keyless.stderr)")
        #expect(keyless.stderr.contains("ssh-agent"), "\(keyless.stderr)")
        #expect(!keyless.stderr.contains("QUIRE_GIT_TOKEN"), "\(keyless.stderr)")
    }

    @Test func aChangedHostKeyIsRefusedWithoutACredentialsHint() throws {
        let server = try GitServer.start("ssh")
        defer { server.stop() }
        _ = try server.makeRepository()
        let home = try Self.sshHome(server, trusted: true)
        let other = try Harness.temporaryDirectory("quire-other-key")
        try #require(try spawnAndWait(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "",
                                       "-f", other.appendingPathComponent("key").path]) == 0)
        let otherKey = try Harness.read(other.appendingPathComponent("key.pub")).split(separator: " ").prefix(2).joined(separator: " ")
        try Harness.write("[127.0.0.1]:\(server.port) \(otherKey)\n", to: home.appendingPathComponent(".ssh/known_hosts"))
        let a = try SyncErrorTests.lonely(try SyncWorld())
        try #require(try a.run(["remote", "--replace", server.baseURL + "vault.git"]).code == 0)
        let run = try a.run(["sync"], environment: ["HOME": home.path])
        #expect(run.code == 4, "\(run.stderr)")
        #expect(run.stderr.contains("does not match"), "\(run.stderr)")
        #expect(run.stderr.contains("ssh-keygen -R"), "\(run.stderr)")
        #expect(!run.stderr.contains("ssh-agent"), "\(run.stderr)")
        #expect(!run.stderr.contains("authentication failed"), "\(run.stderr)")
    }

    @Test func sshUnknownHostIsRefusedWithItsFingerprint() throws {
        let server = try GitServer.start("ssh")
        defer { server.stop() }
        _ = try server.makeRepository()
        let home = try Self.sshHome(server, trusted: false)
        let world = try SyncWorld()
        let made = try Harness.run(["init", world.folder("a").path], in: world.directory)
        try #require(made.code == 0)
        let a = Device(name: "a", vault: TestVault(existing: world.folder("a")))
        try #require(try a.run(["remote", "--replace", server.baseURL + "vault.git"]).code == 0)
        let run = try a.run(["sync"], environment: ["HOME": home.path])
        #expect(run.code == 4, "\(run.stderr)")
        let fingerprint = try Self.fingerprint(server.directory.appendingPathComponent("host_key.pub"))
        #expect(run.stderr.contains(fingerprint), "\(run.stderr)")
        #expect(run.stderr.contains("ssh-keyscan -p \(server.port) 127.0.0.1"), "\(run.stderr)")
        #expect(run.stderr.contains("known_hosts"))
        #expect(!run.stderr.contains("ssh-agent"), "\(run.stderr)")
        #expect(!run.stderr.contains("QUIRE_GIT_TOKEN"), "\(run.stderr)")
    }

    /// `SHA256:…` of a public key file, as `ssh-keygen -l` prints it.
    static func fingerprint(_ publicKey: URL) throws -> String {
        let text = try ProgramOutput.run("/usr/bin/ssh-keygen", ["-l", "-E", "sha256", "-f", publicKey.path]).text
        let field = text.split(separator: " ").first { $0.hasPrefix("SHA256:") }
        return String(try #require(field))
    }

    @Test func smartHTTP() throws {
        let server = try GitServer.start("http")
        defer { server.stop() }
        let bare = try server.makeRepository()
        _ = try Self.roundTrip(url: server.baseURL + "vault.git", bare: bare)
    }

    @Test func httpTokenWorksAndNeverLeaks() throws {
        let server = try GitServer.start("http-auth")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let token = try Harness.read(server.directory.appendingPathComponent("token"))
        let (a, b) = try Self.roundTrip(url: server.baseURL + "vault.git", bare: bare, environment: ["QUIRE_GIT_TOKEN": token])

        try a.write(note("n9", title: "Nine", updated: "2026-11-29T13:00:00Z"), to: "nine.md")
        var outputs: [String] = []
        for arguments in [["sync"], ["status"], ["status", "--json"], ["remote"], ["sync", "--dry-run"]] {
            let run = try a.run(arguments, environment: ["QUIRE_GIT_TOKEN": token])
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
            outputs += [run.stdout, run.stderr]
        }
        let wrong = try b.run(["sync"], environment: ["QUIRE_GIT_TOKEN": "not-the-token"])
        #expect(wrong.code == 4, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stderr.contains("authentication failed: the server refused the token for quire (QUIRE_GIT_TOKEN)"),
                "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("authentication failed: authentication failed"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("ssh-agent"), "\(wrong.stderr)")
        // A wrong password written in the URL: refused, and said so (it read "no credentials").
        let inURL = server.baseURL.replacingOccurrences(of: "://", with: "://quire:WRONGPASS@") + "vault.git"
        let wrongInURL = try Harness.run(["clone", inURL, "c"], in: b.root.deletingLastPathComponent())
        #expect(wrongInURL.code == 4, "\(wrongInURL.stderr)")
        #expect(wrongInURL.stderr.contains("the server refused the password in the URL for quire (http://quire:***@"),
                "\(wrongInURL.stderr)")
        #expect(!wrongInURL.stderr.contains("WRONGPASS"))
        let none = try b.run(["sync"])
        #expect(none.code == 4, "\(none.stdout)\(none.stderr)")
        #expect(none.stderr.contains("authentication failed: no credentials for this remote"), "\(none.stderr)")
        #expect(none.stderr.contains("QUIRE_GIT_TOKEN"), "\(none.stderr)")
        // A server that knows the account by another name: QUIRE_GIT_USER names it.
        try Harness.write("alice:{PLAIN}\(token)\n", to: server.directory.appendingPathComponent("htpasswd"))
        let asQuire = try b.run(["sync"], environment: ["QUIRE_GIT_TOKEN": token])
        #expect(asQuire.code == 4, "\(asQuire.stderr)")
        #expect(asQuire.stderr.contains("the server refused the token for quire"), "\(asQuire.stderr)")
        let asAlice = try b.run(["sync"], environment: ["QUIRE_GIT_TOKEN": token, "QUIRE_GIT_USER": "alice"])
        #expect(asAlice.code == 0, "\(asAlice.stderr)")
        outputs += [asQuire.stdout, asQuire.stderr, asAlice.stdout, asAlice.stderr]
        outputs += [wrong.stdout, wrong.stderr, none.stdout, none.stderr]
        for text in outputs { #expect(!text.contains(token)) }
        for device in [a, b] {
            #expect(!(try Harness.read(device.root.appendingPathComponent(".git/config"))).contains(token))
            for (path, data) in try TestVault.snapshot(device.root) where path.hasPrefix(".quire/") {
                #expect(!String(decoding: data, as: UTF8.self).contains(token), "\(path)")
            }
        }
    }

    /// A token written as the URL's user name (`https://TOKEN@host/…`, GitHub's documented form)
    /// is masked like a password wherever the URL is shown or stored: `***@host`.
    @Test func tokenAsTheURLsUserNameNeverShows() throws {
        let server = try GitServer.start("http-auth")
        defer { server.stop() }
        _ = try server.makeRepository()
        let token = "ghp_SECRET0123456789abcdef"
        let url = server.baseURL.replacingOccurrences(of: "://", with: "://\(token)@") + "vault.git"
        let world = try SyncWorld(url: url)
        let root = world.folder("a")
        try #require(try Harness.run(["init", root.path], in: world.directory).code == 0)
        let device = Device(name: "a", vault: TestVault(existing: root))
        try device.write(note("n1", title: "One", updated: "2026-11-29T12:00:00Z"), to: "one.md")
        var outputs: [String] = []
        for arguments in [["remote", url], ["remote"], ["sync"], ["status"], ["status", "--json"]] {
            let run = try device.run(arguments, environment: ["QUIRE_GIT_TOKEN": "other-token"])
            outputs += [run.stdout, run.stderr]
        }
        #expect(outputs[2].contains("://***@127.0.0.1"), "\(outputs[2])")
        #expect(outputs[5].contains("the token for the user named in the URL"), "\(outputs[5])")
        for text in outputs { #expect(!text.contains(token), "\(text)") }
        for (path, data) in try TestVault.snapshot(root) where path.hasPrefix(".quire/") {
            #expect(!String(decoding: data, as: UTF8.self).contains(token), "\(path)")
        }
    }
}
