import Testing
@testable import QuireCrypto

/// `ManifestSeal` (AEAD under the vault key, bound to a context) and `ContentDigest`.
@Suite struct ManifestSealTests {
    @Test func roundTripsAndBindsKeyAndContext() throws {
        let key = try VaultKey.random()
        let plain = Array("{\"refs\": {}}".utf8)
        let sealed = try ManifestSeal.seal(plain, key: key, context: "quire manifest v1")
        #expect(try ManifestSeal.open(sealed, key: key, context: "quire manifest v1") == plain)
        #expect(throws: CryptoError.tampered(what: "quire keyring v1")) {
            try ManifestSeal.open(sealed, key: key, context: "quire keyring v1")
        }
        #expect(throws: CryptoError.self) { try ManifestSeal.open(sealed, key: try VaultKey.random(), context: "quire manifest v1") }
        #expect(throws: CryptoError.self) { try ManifestSeal.open(Array(sealed.prefix(30)), key: key, context: "quire manifest v1") }
        #expect(try ManifestSeal.seal(plain, key: key, context: "quire manifest v1") != sealed)
    }

    @Test func everyFlippedByteIsRefused() throws {
        let key = try VaultKey.random()
        let sealed = try ManifestSeal.seal(Array("manifest".utf8), key: key, context: "c")
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x80
            #expect(throws: CryptoError.self, "byte \(index)") { try ManifestSeal.open(changed, key: key, context: "c") }
        }
    }

    @Test func digestIsBLAKE2b256() throws {
        #expect(ContentDigest.hex(try ContentDigest.of([])) == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
        #expect(ContentDigest.hex(try ContentDigest.of(Array("abc".utf8))) == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
    }

    @Test func hexRoundTrips() {
        let bytes: [UInt8] = [0, 1, 0xAB, 0xFF]
        #expect(ContentDigest.hex(bytes) == "0001abff")
        #expect(ContentDigest.bytes(hex: "0001ABff") == bytes)
        #expect(ContentDigest.bytes(hex: "abc") == nil)
        #expect(ContentDigest.bytes(hex: "zz") == nil)
    }

    @Test func aVaultKeyNeverShowsItsBytes() throws {
        let key = try VaultKey.random()
        #expect("\(key)" == "VaultKey(32 bytes)")
        #expect(try VaultKey(bytes: key.copyBytes()) == key)
        #expect(throws: CryptoError.self) { try VaultKey(bytes: [1, 2, 3]) }
    }
}
