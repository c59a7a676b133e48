import Foundation
@testable import QuireSync
import Testing

private typealias F = MergeFixture

/// Issue 13 item 15: configuration files changed on both sides merge instead of being forked
/// into device-named copies.
@Suite struct ConfigFileMergeTests {
    private func merge(_ path: String, _ base: String, _ older: String, _ newer: String) throws -> NoteMergeResult {
        let kind = try #require(ConfigFileMerge.kind(of: path))
        let merger = ConfigFileMerge(path: path, kind: kind, strategy: .newest)
        let forward = try merger.merge(base: Data(base.utf8), ours: F.side(older, at: "2026-01-01T10:00:00Z"),
                                       theirs: F.side(newer, at: "2026-01-01T11:00:00Z"))
        let backward = try merger.merge(base: Data(base.utf8), ours: F.side(newer, at: "2026-01-01T11:00:00Z"),
                                        theirs: F.side(older, at: "2026-01-01T10:00:00Z"))
        #expect(forward.merged == backward.merged)
        return forward
    }

    @Test func kinds() {
        #expect(ConfigFileMerge.kind(of: ".gitignore") == .lineList)
        #expect(ConfigFileMerge.kind(of: "Projects/.gitignore") == .lineList)
        #expect(ConfigFileMerge.kind(of: ".gitattributes") == .lineList)
        #expect(ConfigFileMerge.kind(of: ".quireignore") == .lineList)
        #expect(ConfigFileMerge.kind(of: ".quire/config.yml") == .yaml)
        #expect(ConfigFileMerge.kind(of: ".obsidian/app.json") == .json)
        #expect(ConfigFileMerge.kind(of: ".obsidian/plugins/x/data.json") == .json)
        #expect(ConfigFileMerge.kind(of: "img/photo.png") == nil)
        #expect(ConfigFileMerge.kind(of: "data.json") == nil)
    }

    @Test func lineListsMergeAsOrderedSets() throws {
        let result = try merge(".gitignore", ".quire/local/\n*.tmp\n", ".quire/local/\n*.secret\n!public.secret\n",
                               ".quire/local/\n*.tmp\n*.log\n")
        #expect(F.text(result.merged) == ".quire/local/\n*.log\n*.secret\n!public.secret\n")
        #expect(result.decisions.isEmpty)
    }

    /// CRLF files merge line by line too (a CRLF line break is one `Character`: each file was
    /// one line, and the merge put both whole files one after the other).
    @Test func crlfLineListsMergeLineByLine() throws {
        let result = try merge(".gitignore", ".quire/local/\r\n*.tmp\r\n", ".quire/local/\r\n*.secret\r\n",
                               ".quire/local/\r\n*.tmp\r\n*.log\r\n")
        #expect(F.text(result.merged) == ".quire/local/\r\n*.log\r\n*.secret\r\n")
    }

    @Test func yamlConfigMergesKeyByKey() throws {
        let base = "# quire settings\ntimeZone: UTC\nmerge:\n  \"Journal/**\": newest\n"
        let older = "# quire settings\ntimeZone: Europe/Paris # home\nmerge:\n  \"Journal/**\": newest\n"
        let newer = "# quire settings\ntimeZone: UTC\nmerge:\n  \"Journal/**\": newest\n  \"Reference/*\": theirs\n"
        let result = try merge(".quire/config.yml", base, older, newer)
        #expect(F.text(result.merged)
            == "# quire settings\ntimeZone: Europe/Paris # home\nmerge:\n  \"Journal/**\": newest\n  \"Reference/*\": theirs\n")
        #expect(result.decisions.isEmpty)
    }

    @Test func jsonMergesKeyByKeyElseTheNewerWins() throws {
        let base = "{\n  \"theme\": \"light\",\n  \"fontSize\": 14\n}"
        let older = "{\n  \"theme\": \"dark\",\n  \"fontSize\": 14\n}"
        let newer = "{\n  \"theme\": \"light\",\n  \"fontSize\": 16,\n  \"spellcheck\": true\n}"
        let result = try merge(".obsidian/app.json", base, older, newer)
        // The keys keep the files' order (QuireCore's JSON), never re-sorted.
        #expect(F.text(result.merged) == "{\n  \"theme\": \"dark\",\n  \"fontSize\": 16,\n  \"spellcheck\": true\n}\n")
        #expect(result.decisions.isEmpty)

        let collision = try merge(".obsidian/app.json", base, older, newer.replacingOccurrences(of: "light", with: "blue"))
        #expect(F.text(collision.merged) == newer.replacingOccurrences(of: "light", with: "blue"))
        #expect(collision.decisions.map(\.reason) == ["both sides changed key 'theme'; the remote's version is newer (commit time 2026-01-01T11:00:00Z)"])

        // A key only the loser added goes after the key it follows there; nested order is kept.
        let added = try merge(".obsidian/app.json", base, "{\n  \"theme\": \"light\",\n  \"zoom\": {\"b\": 1, \"a\": 2},\n  \"fontSize\": 14\n}",
                              "{\n  \"theme\": \"light\",\n  \"fontSize\": 15\n}")
        #expect(F.text(added.merged)
            == "{\n  \"theme\": \"light\",\n  \"zoom\": {\n    \"b\": 1,\n    \"a\": 2\n  },\n  \"fontSize\": 15\n}\n")

        let broken = try merge(".obsidian/app.json", base, older, "{ not json")
        #expect(F.text(broken.merged) == "{ not json")
        #expect(broken.decisions.map(\.winner) == [.theirs])
    }
}
