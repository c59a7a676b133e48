import Foundation
import QuireGit
import Testing

/// SHA-256 (FIPS 180-4 test vectors) and the fingerprint forms `--pin-certificate` accepts.
struct TLSCertificateTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(Self.hex(SHA256.digest(Data())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.digest(Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Self.hex(SHA256.digest(Data(twoBlocks.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func fingerprintsAreNormalized() {
        let colons = "SHA256:" + (0..<32).map { _ in "AB" }.joined(separator: ":")
        #expect(TLSCertificate.normalizedFingerprint(colons) == colons)
        #expect(TLSCertificate.normalizedFingerprint(String(repeating: "ab", count: 32)) == colons)
        #expect(TLSCertificate.normalizedFingerprint("sha256:" + String(repeating: "AB", count: 32)) == colons)
        #expect(TLSCertificate.normalizedFingerprint("SHA256:AB") == nil)
        #expect(TLSCertificate.normalizedFingerprint(String(repeating: "zz", count: 32)) == nil)
    }
}
