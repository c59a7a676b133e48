import Foundation
import Testing

/// Issue 15, "words a person reads": sync, conflicts and history name the devices ("this
/// device", "the remote", "laptop"), never git's "ours"/"theirs"; a keep-both copy's title says
/// where it came from; history lines say what happened.
@Suite struct DeviceWordingTests {
    /// Laptop and phone change the same key of one note; phone syncs second.
    private static func collide(strategy: [String] = []) throws -> (laptop: Device, phone: Device, sync: QuireRun) {
        let world = try SyncWorld()
        let laptop = try world.first("laptop", notes: [
            "road.md": note("road-1", title: "Road map", updated: "2026-11-01T09:00:00Z", extra: "color: blue\n"),
        ])
        let phone = try world.clone("phone")
        try laptop.write(note("road-1", title: "Road map", updated: "2026-11-02T09:00:00Z", extra: "color: red\n"), to: "road.md")
        try laptop.sync(now: "2026-11-02T09:00:00Z")
        try phone.write(note("road-1", title: "Road map", updated: "2026-11-03T09:00:00Z", extra: "color: green\n"), to: "road.md")
        let sync = try phone.sync(strategy, now: "2026-11-03T09:00:00Z")
        return (laptop, phone, sync)
    }

    @Test func syncAndConflictsNameTheDevices() throws {
        let (laptop, phone, sync) = try Self.collide()
        #expect(sync.stdout.contains("road.md: kept this device's version — both sides changed front-matter key 'color'; "
            + "this device's version is newer (updatedAt 2026-11-03T09:00:00Z)"), "\(sync.stdout)")

        // On the device that merged: its own version is "this device's".
        let here = try phone.run(["conflicts"])
        #expect(here.code == 0)
        #expect(here.stdout.contains("kept this device's version, dropped laptop's version: both sides changed front-matter key "
            + "'color'; this device's version is newer"), "\(here.stdout)")
        // On the other device, after it syncs: the same record names phone.
        try laptop.sync(now: "2026-11-04T09:00:00Z")
        let there = try laptop.run(["conflicts"])
        #expect(there.stdout.contains("kept phone's version, dropped this device's version: both sides changed front-matter key "
            + "'color'; phone's version is newer"), "\(there.stdout)")
        let json = try laptop.run(["conflicts", "--json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(records.first?["keptFrom"] as? String == "phone")
        #expect(records.first?["droppedFrom"] as? String == "laptop")
        for output in [sync.stdout, here.stdout, there.stdout] {
            #expect(output.range(of: "\\b(ours|theirs)\\b", options: .regularExpression) == nil, "\(output)")
        }
    }

    @Test func aKeepBothCopySaysWhereItCameFrom() throws {
        let (_, phone, _) = try Self.collide(strategy: ["--strategy", "keep-both"])
        let copies = try FileManager.default.contentsOfDirectory(atPath: phone.root.path).filter { $0.hasPrefix("road.conflict-") }
        let copy = try phone.read(#require(copies.first, "no keep-both copy: \(copies)"))
        #expect(copy.contains("title: Road map (version from laptop)\n"), "\(copy)")
        #expect(copy.contains("color: red\n"))
        // The copy holds the losing text: nothing needs attention.
        let status = try phone.run(["status"])
        #expect(!status.stdout.contains("dropped text"), "\(status.stdout)")
    }

    @Test func historyLinesSayWhatHappened() throws {
        // Different keys on each device: the merge makes a version neither side had.
        let world = try SyncWorld()
        let laptop = try world.first("laptop", notes: [
            "road.md": note("road-1", title: "Road map", updated: "2026-11-01T09:00:00Z", extra: "color: blue\nmood: calm\n"),
        ])
        let phone = try world.clone("phone")
        try laptop.write(note("road-1", title: "Road map", updated: "2026-11-02T09:00:00Z", extra: "color: red\nmood: calm\n"), to: "road.md")
        try laptop.sync(now: "2026-11-02T09:00:00Z")
        try phone.write(note("road-1", title: "Road map", updated: "2026-11-03T09:00:00Z", extra: "color: blue\nmood: glad\n"), to: "road.md")
        try phone.sync(now: "2026-11-03T09:00:00Z")
        let history = try phone.run(["history", "Road map"])
        #expect(history.code == 0, "\(history.stderr)")
        let lines = history.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("merged from laptop (on phone)") }, "\(history.stdout)")
        #expect(lines.contains { $0.hasSuffix("edited on phone") }, "\(history.stdout)")
        #expect(lines.contains { $0.hasSuffix("edited on laptop") }, "\(history.stdout)")
        #expect(lines.contains { $0.hasSuffix("created on laptop") }, "\(history.stdout)")

        // A commit quire did not make keeps its message.
        try laptop.sync(now: "2026-11-04T09:00:00Z")
        try laptop.write(note("road-1", title: "Road map", updated: "2026-11-05T09:00:00Z", extra: "color: teal\n"), to: "road.md")
        #expect(try laptop.git(["commit", "-qam", "Teal is the new green"]).code == 0)
        let own = try laptop.run(["history", "Road map"])
        #expect(own.stdout.split(separator: "\n").first?.hasSuffix("edited on cli: \"Teal is the new green\"") == true, "\(own.stdout)")
    }
}
