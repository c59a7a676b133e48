import Foundation
import QuireGit
import Testing

@Suite struct PackWriterTests {
    /// Blobs of every shape: empty, one byte, several stored blocks, binary, repeated content.
    static func blobs() -> [Data] {
        var result = [Data(), Data("x".utf8), Data(repeating: 0xA5, count: 70_000 + 3), Data((0..<256).map { UInt8($0) })]
        for index in 0..<120 { result.append(Data("---\nid: n\(index)\n---\nBody \(index).\n".utf8)) }
        result.append(Data("---\nid: n0\n---\nBody 0.\n".utf8))  // the same object twice in one pack
        return result
    }

    @Test func blobsWrittenAsOnePackReadBackUnderGitsIDs() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        let blobs = Self.blobs()
        let ids = try repo.writeBlobsAsPack(blobs)
        #expect(ids == (try blobs.map { try OID.blob(for: $0) }))
        for (id, blob) in zip(ids, blobs) { #expect(try repo.blobData(id) == blob) }
        // One pack and its index, no loose object.
        let objects = temp.path(".git/objects")
        let packs = try FileManager.default.contentsOfDirectory(atPath: objects.appendingPathComponent("pack").path).sorted()
        #expect(packs.count == 2 && packs[0].hasSuffix(".idx") && packs[1].hasSuffix(".pack"))
        let loose = try FileManager.default.contentsOfDirectory(atPath: objects.path).filter { $0.count == 2 }
        #expect(loose.isEmpty)
        // git itself reads the pack: verified checksums, the same bytes.
        let pack = objects.appendingPathComponent("pack").appendingPathComponent(packs[1]).path
        #expect(try Fixture.git(["verify-pack", pack], in: temp.url).isEmpty)
        #expect(try Fixture.git(["cat-file", "-p", ids[4].hex], in: temp.url) == "---\nid: n0\n---\nBody 0.\n")
        #expect(try Fixture.git(["fsck", "--strict", "--no-dangling"], in: temp.url).isEmpty)
    }

    @Test func blobsAlreadyStoredAreNotWrittenLooseAgain() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        let ids = try repo.writeBlobsAsPack(Self.blobs())
        #expect(try repo.writeBlob(Self.blobs()[7]) == ids[7])
        let loose = try FileManager.default.contentsOfDirectory(atPath: temp.path(".git/objects").path).filter { $0.count == 2 }
        #expect(loose.isEmpty)
        #expect(try repo.writeBlobsAsPack([]) == [])
    }

    /// 150 files staged at once: one pack, index entries with the files' stat data (git sees
    /// nothing to refresh), and the same tree `git add -A` makes.
    @Test func manyFilesStagedThroughOnePackMatchGitsOwnStaging() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        var paths: [String] = []
        for index in 0..<150 {
            let path = "Folder\(index % 3)/note-\(index).md"
            try Fixture.write("---\nid: n\(index)\n---\nBody \(index).\n", to: path, in: temp.url)
            paths.append(path)
        }
        try Fixture.write("same\n", to: "a-copy.md", in: temp.url)
        try Fixture.write("same\n", to: "b-copy.md", in: temp.url)
        paths += ["a-copy.md", "b-copy.md", "gone.md"]  // a path with no file is a deletion
        let index = try repo.index()
        try index.update(paths: paths, root: temp.url)
        try index.write()
        let loose = try FileManager.default.contentsOfDirectory(atPath: temp.path(".git/objects").path).filter { $0.count == 2 }
        #expect(loose.isEmpty)  // every blob is in the pack
        let tree = try index.writeTree()
        #expect(try repo.status().allSatisfy { !$0.inWorkTree })
        #expect(try Fixture.git(["diff-files", "--name-only"], in: temp.url).isEmpty)
        try Fixture.git(["add", "-A"], in: temp.url)
        #expect(try Fixture.git(["write-tree"], in: temp.url) == tree.hex + "\n")
    }

    /// Files a filter applies to (here `text` with CRLF content) are stored the way libgit2
    /// stores them, normalized, not as read.
    @Test func filteredFilesAreStoredAsLibgit2StoresThem() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("*.md text\n", to: ".gitattributes", in: temp.url)
        var paths = [".gitattributes"]
        for index in 0..<120 {
            try Fixture.write("line one\r\nline \(index)\r\n", to: "n\(index).md", in: temp.url)
            paths.append("n\(index).md")
        }
        let index = try repo.index()
        try index.update(paths: paths, root: temp.url)
        let tree = try index.writeTree()
        let entry = try #require(try repo.treeEntries(tree).first { $0.path == "n7.md" })
        #expect(try repo.blobData(entry.id) == Data("line one\nline 7\n".utf8))
    }

    @Test func sha1MatchesKnownDigestsWholeAndInPieces() throws {
        #expect(SHA1.hex(Data()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex(Data("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        let text = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA1.hex(text) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA1.hex(million) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // Fed in uneven pieces (across block boundaries): the same digest.
        var hasher = SHA1Hasher()
        var offset = 0
        for size in [1, 63, 64, 65, 7, 1000, 0, 128] + Array(repeating: 4093, count: 240) where offset < million.count {
            let end = min(offset + size, million.count)
            million[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
        }
        million[offset...].withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalize() == SHA1.digest(million))
        #expect(SHA1.hmac(key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8))
            .map { String(format: "%02x", $0) }.joined() == "de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9")
    }
}
