import Foundation
import Testing

/// `quire history` of a note made from the same template as a deleted one (issue 32, class 7).
/// The two files are alike but for a few lines, so git's rename detection pairs the deletion
/// with the addition; history followed that "rename" and listed the deleted note's commits as
/// the new note's, and `history --deleted` left the deleted note out. Notes are now paired by
/// `id` where both have one: different ids are never the same note, whatever their likeness.
@Suite struct HistoryTemplateNoteTests {
    static let template = "---\ntags: [meeting]\n---\n# {{title}}\n\n## Attendees\n\n- \n\n## Agenda\n\n"
        + "1. Review of last week\n2. Blockers\n3. Plans for the week\n4. Anything else\n\n## Notes\n\n## Action items\n\n- [ ] \n"

    @Test func aNoteFromTheTemplateOfADeletedOneHasOnlyItsOwnHistory() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair([".quire/templates/meeting.md": Self.template])
        #expect(try a.run(["new", "Standup Monday", "--template", "meeting"], now: "2026-11-30T09:00:00Z").code == 0)
        try a.sync(now: "2026-11-30T09:05:00Z")
        let mondayCommit = try a.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try b.sync(now: "2026-11-30T09:10:00Z")
        // b deletes Monday's note and makes Tuesday's from the same template, in one commit.
        try b.remove("standup-monday.md")
        #expect(try b.run(["new", "Standup Tuesday", "--template", "meeting"], now: "2026-12-01T09:00:00Z").code == 0)
        try b.sync(now: "2026-12-01T09:05:00Z")
        try a.sync(now: "2026-12-01T09:10:00Z")
        let tuesdayCommit = try b.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for device in [a, b] {
            let entries = try HistoryAcrossDevicesTests.history(device, "standup-tuesday.md")
            #expect(entries == [.init(commit: tuesdayCommit, path: "standup-tuesday.md", change: "added", device: "b")],
                    "on \(device.name): \(entries)")
            let deleted = try device.run(["history", "--deleted"])
            #expect(deleted.stdout.contains("standup-monday.md  deleted on b"), "on \(device.name): \(deleted.stdout)")
            let monday = try device.run(["history", "standup-monday.md", "--json"]).stdout
            #expect(monday.contains(mondayCommit) && !monday.contains("standup-tuesday"), "\(monday)")
        }
    }
}
