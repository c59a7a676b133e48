import Foundation
import QuireGit
import Testing

/// `forPushing()`: the pack a push sends is built without libgit2's delta search, and the
/// user's config is left alone.
@Suite struct PushingTests {
    /// The blobs of the newest pack in `repository` stored as deltas (`git verify-pack -v`
    /// lists a deltified object with its depth and base: seven fields).
    private func deltifiedBlobs(in repository: URL, _ temp: TemporaryDirectory) throws -> Int {
        let folder = repository.appendingPathComponent("objects/pack")
        let indexes = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".idx") }
        #expect(indexes.count == 1)
        let listing = try Fixture.git(["verify-pack", "-v", folder.appendingPathComponent(indexes[0]).path], in: temp.url)
        return listing.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            return fields.count == 7 && fields[1] == "blob"
        }.count
    }

    @Test func pushedPackHoldsNoDeltas() throws {
        for throughPushingHandle in [false, true] {
            let temp = try TemporaryDirectory()
            let work = temp.path("work")
            let repo = try Repository.create(at: work)
            _ = try Repository.create(at: temp.path("remote.git"), bare: true)
            let text = (0..<400).map { "line \($0) of a long note\n" }.joined()
            try Fixture.write(text, to: "a.md", in: work)
            try Fixture.write(text + "one more line\n", to: "b.md", in: work)
            let head = try Fixture.commitAll(repo, "two similar notes", at: 0)
            try repo.createRemote(named: "origin", url: temp.path("remote.git").path)
            let handle = throughPushingHandle ? try repo.forPushing() : repo
            try #require(try handle.remote(named: "origin")).push(branch: "main", expected: nil)
            // Without the delta search the similar note is sent whole; with it, as a delta.
            #expect(try deltifiedBlobs(in: temp.path("remote.git"), temp) == (throughPushingHandle ? 0 : 1))
            let remote = try Repository.open(at: temp.path("remote.git"))
            #expect(try remote.referenceTarget("refs/heads/main") == head)
            #expect(try Fixture.git(["fsck", "--strict", "--no-dangling"], in: temp.path("remote.git")).isEmpty)
            #expect(try repo.configString("pack.deltaCacheSize") == nil)
            #expect(try !Fixture.git(["config", "--list", "--local"], in: work).contains("pack."))
        }
    }
}
