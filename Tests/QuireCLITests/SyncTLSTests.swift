import Foundation
import QuireTestSupport
import Testing

/// https with a self-signed certificate made by the test (nginx with TLS on loopback in front of
/// git http-backend): trust by git's CA settings and by pinning the certificate's fingerprint,
/// and a certificate issued for an IP address, which Debian's libgit2 cannot match by itself.
@Suite(.serialized) struct SyncTLSTests {
    /// `SHA256:AB:…` of a PEM certificate, as `openssl x509 -fingerprint -sha256` prints it.
    static func fingerprint(_ certificate: URL) throws -> String {
        let text = try ProgramOutput.run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", certificate.path]).text
        let hex = try #require(text.split(separator: "=").last).trimmingCharacters(in: .whitespacesAndNewlines)
        return "SHA256:" + hex
    }

    /// A vault with one note whose remote is `url`.
    static func vault(remote url: String) throws -> Device {
        let a = try SyncErrorTests.lonely(try SyncWorld())
        try #require(try a.run(["remote", "--replace", url]).code == 0)
        return a
    }

    @Test func caFromTheEnvironmentClonesAndSyncs() throws {
        let server = try GitServer.start("https")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let certificate = server.directory.appendingPathComponent("cert.pem").path
        #expect(server.baseURL.hasPrefix("https://localhost:"))
        _ = try SyncTransportTests.roundTrip(url: server.baseURL + "vault.git", bare: bare,
                                             environment: ["GIT_SSL_CAINFO": certificate])
        let other = try Self.vault(remote: server.baseURL + "vault.git")
        let run = try other.run(["sync"], environment: ["SSL_CERT_FILE": certificate])
        #expect(run.code == 0, "\(run.stderr)")
    }

    @Test func caFromGitConfigIsHonoured() throws {
        let server = try GitServer.start("https")
        defer { server.stop() }
        _ = try server.makeRepository()
        let certificate = server.directory.appendingPathComponent("cert.pem").path
        let a = try Self.vault(remote: server.baseURL + "vault.git")
        // In the user's global git config (a HOME of its own)...
        let home = try Harness.temporaryDirectory("quire-tls-home")
        try Harness.write("[http]\n\tsslCAInfo = \(certificate)\n", to: home.appendingPathComponent(".gitconfig"))
        let global = try a.run(["sync"], environment: ["HOME": home.path])
        #expect(global.code == 0, "\(global.stderr)")
        // ...and in the repository's own.
        try a.write(note("n2", title: "Two", updated: "2026-11-29T12:00:00Z"), to: "two.md")
        try #require(try a.git(["config", "http.sslCAInfo", certificate]).code == 0)
        let local = try a.run(["sync"])
        #expect(local.code == 0, "\(local.stderr)")
        try #require(try a.git(["config", "http.sslCAInfo", "/nonexistent/ca.pem"]).code == 0)
        let missing = try a.run(["sync"])
        #expect(missing.code == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("/nonexistent/ca.pem"), "\(missing.stderr)")
    }

    @Test func anUntrustedCertificateShowsItsFingerprintAndPinningTrustsIt() throws {
        let server = try GitServer.start("https")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let fingerprint = try Self.fingerprint(server.directory.appendingPathComponent("cert.pem"))
        let a = try Self.vault(remote: server.baseURL + "vault.git")
        let refused = try a.run(["sync"])
        #expect(refused.code == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains("the TLS certificate of localhost is refused"), "\(refused.stderr)")
        #expect(refused.stderr.contains("quire remote --pin-certificate \(fingerprint)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("ssh-agent"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("QUIRE_GIT_TOKEN"), "\(refused.stderr)")
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))

        let wrongPin = try a.run(["remote", "--pin-certificate", "SHA256:00"])
        #expect(wrongPin.code == 2, "\(wrongPin.stderr)")
        // Lowercase and without colons is the same fingerprint.
        let typed = fingerprint.dropFirst("SHA256:".count).replacingOccurrences(of: ":", with: "").lowercased()
        let pinned = try a.run(["remote", "--pin-certificate", typed])
        #expect(pinned.code == 0, "\(pinned.stderr)")
        #expect(try Harness.read(a.root.appendingPathComponent(".quire/local/config.yml")).contains(fingerprint))
        let synced = try a.run(["sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == gitCLI(["rev-parse", "main"], in: bare).stdout)
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty, "the local config stays untracked")

        // A new device: clone refuses the same way, and --pin-certificate clones and keeps the pin.
        let folder = a.root.deletingLastPathComponent().appendingPathComponent("b")
        let refusedClone = try Harness.run(["clone", server.baseURL + "vault.git", folder.path], in: a.root.deletingLastPathComponent())
        #expect(refusedClone.code == 4, "\(refusedClone.stderr)")
        #expect(refusedClone.stderr.contains("quire clone --pin-certificate \(fingerprint)"), "\(refusedClone.stderr)")
        let cloned = try Harness.run(["clone", "--pin-certificate", fingerprint, server.baseURL + "vault.git", folder.path],
                                     in: a.root.deletingLastPathComponent(), environment: ["QUIRE_DEVICE": "b"])
        #expect(cloned.code == 0, "\(cloned.stderr)")
        let b = Device(name: "b", vault: TestVault(existing: folder))
        #expect(try b.run(["sync"], environment: ["QUIRE_DEVICE": "b"]).code == 0)
        #expect(try a.files() == b.files())
    }

    @Test func aCertificateForAnIPAddressSaysWhyAndCanBePinned() throws {
        let server = try GitServer.start("https-ip")
        defer { server.stop() }
        _ = try server.makeRepository()
        let certificate = server.directory.appendingPathComponent("cert.pem")
        let fingerprint = try Self.fingerprint(certificate)
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        let a = try Self.vault(remote: server.baseURL + "vault.git")
        // Trusted as an authority, it is still refused: the TLS library cannot match an address.
        let refused = try a.run(["sync"], environment: ["GIT_SSL_CAINFO": certificate.path])
        #expect(refused.code == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains("issued for the IP address 127.0.0.1"), "\(refused.stderr)")
        #expect(refused.stderr.contains(fingerprint), "\(refused.stderr)")
        try #require(try a.run(["remote", "--pin-certificate", fingerprint]).code == 0)
        let synced = try a.run(["sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
    }
}
