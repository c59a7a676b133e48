import Foundation
import QuireGit
import Testing

@Suite struct MergeFileTests {
    @Test func cleanMergeTakesBothSides() throws {
        let base = Data("a\nb\nc\nd\ne\n".utf8)
        let ours = Data("A\nb\nc\nd\ne\n".utf8)
        let theirs = Data("a\nb\nc\nd\nE\n".utf8)
        let result = try MergeFile.merge(base: base, ours: ours, theirs: theirs)
        #expect(!result.conflicted)
        #expect(String(decoding: result.data, as: UTF8.self) == "A\nb\nc\nd\nE\n")
    }

    @Test func collidingHunksAreConflicted() throws {
        let result = try MergeFile.merge(base: Data("a\n".utf8), ours: Data("b\n".utf8), theirs: Data("c\n".utf8))
        #expect(result.conflicted)
    }

    @Test func emptyBaseWorks() throws {
        let result = try MergeFile.merge(base: nil, ours: Data("same\n".utf8), theirs: Data("same\n".utf8))
        #expect(!result.conflicted)
        #expect(result.data == Data("same\n".utf8))
    }

    @Test func sha1MatchesKnownVectors() {
        #expect(SHA1.hex(Data("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex(Data()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA1.hex(long) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test func oidHexRoundTrip() throws {
        let hex = "a9993e364706816aba3e25717850c26c9cd0d89d"
        #expect(OID(hex: hex)?.hex == hex)
        #expect(OID(hex: "xyz") == nil)
    }
}
