import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// The snapshot files' format (`SnapshotFile`): a damaged, truncated, foreign, empty or
/// other-version file is never used — the catalog is rebuilt and answers as a fresh build does.
@Suite struct SnapshotFileTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let queries = ["apple", "tag:work", "folder:drafts", "\"toy story\"", "caf*", "draft:true", "mood:>=3",
                          "-tag:home", "title:apple OR project:quire", "path:journal/*/*", "updated:>30d"]

    /// A vault of generated notes whose snapshot is written, with what a fresh build answers.
    struct Fixture {
        let vault: TestVault
        let answers: [[String]]
        let records: [NoteRecord]
        let base: [UInt8]
        let state: [UInt8]
        var basePath: String { vault.root + "/.quire/cache/catalog.bin" }
        var statePath: String { CatalogCache.statePath(basePath) }

        init() throws {
            vault = try TestVault()
            var generator = VaultGenerator(seed: 21)
            for note in generator.notes(count: 60) {
                let tags = note.tags.joined(separator: ", ")
                var text = "---\ntitle: \(note.title)\ntags: \(tags)\n"
                if let project = note.project { text += "project: \(project)\n" }
                text += "draft: \(note.draft)\n---\n\(note.body)\n"
                try vault.write(note.path, text)
            }
            let built = vault.open(rebuild: true)
            answers = try Self.answers(built)
            records = built.catalog.records
            base = try [UInt8](Data(contentsOf: URL(fileURLWithPath: vault.root + "/.quire/cache/catalog.bin")))
            state = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CatalogCache.statePath(
                vault.root + "/.quire/cache/catalog.bin"))))
            #expect(vault.open().report.cacheIssue == nil)
        }

        static func answers(_ store: CatalogStore) throws -> [[String]] {
            try SnapshotFileTests.queries.map { text in
                try store.catalog.run(NoteQuery.parse(text, now: SnapshotFileTests.now), sort: .path).map(\.record.path)
            }
        }

        /// Puts `base` and `state` in place (nil: the intact file), opens the store and checks
        /// that the snapshot was refused with an issue `expected` accepts, that the catalog answers
        /// as a fresh build does, and that the snapshot written then is used by the next open.
        func expectRebuilt(base damagedBase: [UInt8]? = nil, state damagedState: [UInt8]? = nil, _ label: String,
                           sourceLocation: SourceLocation = #_sourceLocation,
                           expected: (CacheError) -> Bool = { _ in true }) throws {
            try Data(damagedBase ?? base).write(to: URL(fileURLWithPath: basePath), options: .atomic)
            try Data(damagedState ?? state).write(to: URL(fileURLWithPath: statePath), options: .atomic)
            let store = vault.open()
            let issue = try #require(store.report.cacheIssue, "\(label): the damaged snapshot was used",
                                     sourceLocation: sourceLocation)
            #expect(expected(issue), "\(label): \(issue)", sourceLocation: sourceLocation)
            #expect(try Self.answers(store) == answers, "\(label)", sourceLocation: sourceLocation)
            #expect(store.catalog.records == records, "\(label)", sourceLocation: sourceLocation)
            let reopened = vault.open()
            #expect(reopened.report.cacheIssue == nil, "\(label)", sourceLocation: sourceLocation)
            #expect(try Self.answers(reopened) == answers, "\(label)", sourceLocation: sourceLocation)
        }

        /// The section table of the intact file of `kind`.
        func sections(_ kind: SnapshotFile.Kind) throws -> [(offset: Int, length: Int)] {
            try Data(base).write(to: URL(fileURLWithPath: basePath), options: .atomic)
            try Data(state).write(to: URL(fileURLWithPath: statePath), options: .atomic)
            return try SnapshotFile.read(kind == .base ? basePath : statePath, kind: kind).sections
        }
    }

    /// A file verified whole once its times are a second old is marked (`VerifiedStamp`): later
    /// loads skip the section checksums, and a byte flipped in place afterwards (new times) is
    /// still found.
    @Test func aVerifiedFileIsMarkedAndDamageAfterwardsIsStillFound() throws {
        let fixture = try Fixture()
        let marker = VerifiedStamp.markerPath(fixture.basePath)
        try? FileManager.default.removeItem(atPath: marker)
        // No wait for the file to settle: its modification time is set back, and the load is
        // told a time two seconds on (the flip below then changes the time the marker holds).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -10)],
                                              ofItemAtPath: fixture.basePath)
        _ = try SnapshotFile.read(fixture.basePath, kind: .base, now: Date(timeIntervalSinceNow: 2))
        let stamp = try #require(VerifiedStamp.read(fixture.basePath), "no marker after a verified load of a settled file")
        _ = try SnapshotFile.read(fixture.basePath, kind: .base)
        #expect(VerifiedStamp.read(fixture.basePath) == stamp)
        // A byte flipped in place, in the last section: the times change, so it is verified again.
        let table = try SnapshotFile.read(fixture.basePath, kind: .base).sections
        let last = try #require(table.last { $0.length > 0 })
        let handle = try #require(FileHandle(forUpdatingAtPath: fixture.basePath))
        try handle.seek(toOffset: UInt64(last.offset))
        let byte = handle.readData(ofLength: 1)
        try handle.seek(toOffset: UInt64(last.offset))
        handle.write(Data([(byte.first ?? 0) ^ 0x5A]))
        try handle.close()
        #expect(throws: CacheError.self) { try SnapshotFile.read(fixture.basePath, kind: .base) }
    }

    /// A marker whose write fails (the disk is full: its temporary file leads to `/dev/full`)
    /// leaves no `<file>.verified.<pid>` behind; every command used to leave an empty one.
    @Test func aMarkerThatCannotBeWrittenLeavesNoTemporaryFile() throws {
        let fixture = try Fixture()
        let marker = VerifiedStamp.markerPath(fixture.basePath)
        try? FileManager.default.removeItem(atPath: marker)
        let temporary = marker + ".\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: "/dev/full")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        var status = stat()
        try #require(stat(fixture.basePath, &status) == 0)
        VerifiedStamp(status, id: 7).write(fixture.basePath)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: temporary)) == nil, "the temporary file is left")
        #expect(VerifiedStamp.read(fixture.basePath) == nil)
        // With room, it is written.
        VerifiedStamp(status, id: 7).write(fixture.basePath)
        #expect(VerifiedStamp.read(fixture.basePath) == VerifiedStamp(status, id: 7))
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    /// A file is settled (and may be marked) once its last change is past its file system's clock
    /// tick: 100 ms where the times have nanoseconds, two seconds where they are whole seconds
    /// (FAT's go by two); the newer of the modification and change times counts.
    @Test func aFileSettlesAfterItsFileSystemsTick() {
        func stamp(modified: timespec, changed: timespec) -> VerifiedStamp {
            var status = stat()
            status.st_mtim = modified
            status.st_ctim = changed
            return VerifiedStamp(status, id: 1)
        }
        func date(_ time: timespec, plus milliseconds: Int) -> Date {
            Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 + Double(milliseconds) / 1000)
        }
        let fine = timespec(tv_sec: 1_790_000_000, tv_nsec: 123_456_789)
        let fineStamp = stamp(modified: fine, changed: fine)
        #expect(!fineStamp.isSettled(now: date(fine, plus: 0)))
        #expect(!fineStamp.isSettled(now: date(fine, plus: 60)))
        #expect(fineStamp.isSettled(now: date(fine, plus: 150)))
        // Whole seconds: not settled a second on (the rule before), settled past two.
        let coarse = timespec(tv_sec: 1_790_000_000, tv_nsec: 0)
        let coarseStamp = stamp(modified: coarse, changed: coarse)
        #expect(!coarseStamp.isSettled(now: date(coarse, plus: 150)))
        #expect(!coarseStamp.isSettled(now: date(coarse, plus: 1_500)))
        #expect(coarseStamp.isSettled(now: date(coarse, plus: 2_100)))
        // A file renamed into place later than written: the change time counts.
        let renamed = timespec(tv_sec: 1_790_000_005, tv_nsec: 500_000_000)
        let renamedStamp = stamp(modified: fine, changed: renamed)
        #expect(!renamedStamp.isSettled(now: date(renamed, plus: 50)))
        #expect(renamedStamp.isSettled(now: date(renamed, plus: 150)))
        // One of the two times with nanoseconds is enough to know the file system keeps them.
        #expect(stamp(modified: coarse, changed: fine).isSettled(now: date(fine, plus: 150)))
    }

    /// A load 150 ms after the file was written marks it, so the loads after it skip the
    /// checksums (`aVerifiedFileIsMarkedAndDamageAfterwardsIsStillFound`); one 50 ms after does
    /// not. The test needs a temporary folder whose file system keeps nanoseconds (ext4, tmpfs)
    /// and fails, saying so, on one that keeps whole seconds.
    @Test func aFreshFileIsMarkedAFractionOfASecondLater() throws {
        let fixture = try Fixture()
        let marker = VerifiedStamp.markerPath(fixture.basePath)
        try? FileManager.default.removeItem(atPath: marker)
        var status = stat()
        try #require(stat(fixture.basePath, &status) == 0)
        guard status.st_mtim.tv_nsec != 0 || status.st_ctim.tv_nsec != 0 else {
            Issue.record("the temporary folder's file system keeps whole seconds: this test needs one with nanoseconds")
            return
        }
        let newest = max(Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9,
                         Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9)
        _ = try SnapshotFile.read(fixture.basePath, kind: .base, now: Date(timeIntervalSince1970: newest + 0.05))
        #expect(VerifiedStamp.read(fixture.basePath) == nil, "marked 50 ms after its last change")
        _ = try SnapshotFile.read(fixture.basePath, kind: .base, now: Date(timeIntervalSince1970: newest + 0.15))
        let marked = try #require(VerifiedStamp.read(fixture.basePath), "not marked 150 ms after its last change")
        #expect(marked == VerifiedStamp(status, id: marked.id))
    }

    @Test func truncatedAtEverySectionBoundaryAndAtRandomIsRebuilt() throws {
        let fixture = try Fixture()
        var random = SeededGenerator(seed: 77)
        for kind in [SnapshotFile.Kind.base, .state] {
            let bytes = kind == .base ? fixture.base : fixture.state
            let table = try fixture.sections(kind)
            let header = SnapshotFile.headerSize(sections: table.count)
            var cuts: Set<Int> = [0, 1, 8, 12, 20, 24, SnapshotFile.headerChecksumOffset(sections: table.count), header]
            for section in table {
                cuts.insert(section.offset)
                cuts.insert(section.offset + section.length / 2)
            }
            for _ in 0..<6 { cuts.insert(Int(random.next() % UInt64(bytes.count))) }
            for cut in cuts.sorted() where cut >= 0 && cut < bytes.count {
                let truncated = Array(bytes.prefix(cut))
                try fixture.expectRebuilt(base: kind == .base ? truncated : nil, state: kind == .state ? truncated : nil,
                                          "\(kind) cut at \(cut) of \(bytes.count)")
            }
        }
    }

    @Test func aFlippedByteInAnySectionOrTheHeaderIsRebuilt() throws {
        let fixture = try Fixture()
        for kind in [SnapshotFile.Kind.base, .state] {
            let bytes = kind == .base ? fixture.base : fixture.state
            let table = try fixture.sections(kind)
            var places = Array(stride(from: 12, to: SnapshotFile.headerSize(sections: table.count), by: 23))
            for section in table where section.length > 0 {
                places.append(section.offset + section.length / 2)
            }
            for place in places {
                var damaged = bytes
                damaged[place] ^= 0x10
                try fixture.expectRebuilt(base: kind == .base ? damaged : nil, state: kind == .state ? damaged : nil,
                                          "\(kind) byte \(place) flipped") { issue in
                    if case .corrupt = issue { return true }
                    return false
                }
            }
        }
    }

    @Test func anotherVersionAForeignFileAndAnEmptyFileAreRebuilt() throws {
        let fixture = try Fixture()
        var older = fixture.base
        withUnsafeBytes(of: (SnapshotFile.version - 1).littleEndian) { older.replaceSubrange(8..<12, with: $0) }
        try fixture.expectRebuilt(base: older, "another version") { $0 == .oldVersion(SnapshotFile.version - 1) }
        var newer = fixture.state
        withUnsafeBytes(of: (SnapshotFile.version + 1).littleEndian) { newer.replaceSubrange(8..<12, with: $0) }
        try fixture.expectRebuilt(state: newer, "a newer state") { $0 == .oldVersion(SnapshotFile.version + 1) }

        let foreign = Array("# Not a catalog\n\nJust a note that landed here, long enough for a header.\n".utf8)
        try fixture.expectRebuilt(base: foreign, "a text file") { $0 == .corrupt("not a catalog base file") }
        try fixture.expectRebuilt(base: fixture.state, state: fixture.base, "the two files swapped") {
            $0 == .corrupt("not a catalog base file")
        }
        var random = SeededGenerator(seed: 5)
        let noise = (0..<fixture.base.count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try fixture.expectRebuilt(base: noise, "random bytes")
        try fixture.expectRebuilt(base: [], "an empty base") { $0 == .corrupt("file too short") }
        try fixture.expectRebuilt(state: [], "an empty state") { $0 == .corrupt("file too short") }
        // Longer than written: the checksums still hold, but the sizes must say where it ends.
        try fixture.expectRebuilt(base: fixture.base + [UInt8](repeating: 0, count: 4096), "zeros appended") {
            $0 == .corrupt("bytes after the last section")
        }
    }

    /// Sections built in place in the file's mapping (`place`, then `write` of that memory or
    /// not, in chunks whose ends fall inside pages) read back as written beside sections copied
    /// in, the late section appended after them; a file made without `inPlace` has no places.
    @Test func sectionsBuiltInPlaceReadBackAsWritten() throws {
        let vault = try TestVault()
        let path = vault.root + "/.quire/cache/catalog.bin"
        var random = SeededGenerator(seed: 17)
        let built: Set<SnapshotFile.Section> = [.postingDocs, .positions, .postingFrequencies, .forward]
        let late = SnapshotFile.Section.postingOverflow
        // Sizes in elements: empty, one, some, past a few pages.
        let counts = SnapshotFile.Section.allCases.map { _ in [0, 1, 777, 5_000, 12_289][Int(random.next() % 5)] }
        let values = SnapshotFile.Section.allCases.map { section in
            (0..<counts[section.rawValue] * section.elementSize).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        let file = try SnapshotFile(path: path, kind: .base, lengths: values.map(\.count), late: late.rawValue, inPlace: true)
        for section in SnapshotFile.Section.allCases where section != late {
            let bytes = values[section.rawValue]
            guard built.contains(section) else {
                try file.write(section, bytes)
                continue
            }
            let size = section.elementSize
            var first = 0
            while first < counts[section.rawValue] {
                let count = min(1 + Int(random.next() % 3_000), counts[section.rawValue] - first)
                let place = try #require(file.place(section, from: first * size, as: UInt8.self), "no place for \(section)")
                for index in 0..<count * size { place[index] = bytes[first * size + index] }
                // The place is the file's memory: a chunk built there is in the file without a
                // `write` (which gives its pages back).
                if random.next() % 2 == 0 {
                    try file.write(section, from: first * size, UnsafeBufferPointer(start: place, count: count * size))
                }
                first += count
            }
        }
        try file.appendLate(values[late.rawValue])
        _ = try file.finish()
        _ = try file.install()?.wait()
        let contents = try SnapshotFile.read(path, kind: .base)
        for section in SnapshotFile.Section.allCases {
            let (offset, length) = contents.sections[section.rawValue]
            let read = [UInt8](UnsafeRawBufferPointer(start: contents.memory.base + offset, count: length))
            let same = read == values[section.rawValue]
            #expect(same, "\(section) reads back otherwise")
        }
        let copied = try SnapshotFile(path: path + "2", kind: .base, lengths: values.map(\.count))
        #expect(copied.place(.forward, as: UInt32.self) == nil)
    }

    /// A file made to pass its checksums (sums computed again after the damage) is still never
    /// read out of bounds: loading refuses it or the catalog answers without crashing.
    @Test func resealedDamageNeverCrashes() throws {
        let fixture = try Fixture()
        var random = SeededGenerator(seed: 3)
        let table = try fixture.sections(.base)
        for round in 0..<40 {
            var damaged = fixture.base
            let section = table[round % table.count]
            guard section.length > 0 else { continue }
            for _ in 0..<4 {
                let place = section.offset + Int(random.next() % UInt64(section.length))
                damaged[place] = UInt8(truncatingIfNeeded: random.next())
            }
            SnapshotFile.reseal(&damaged)
            try Data(damaged).write(to: URL(fileURLWithPath: fixture.basePath), options: .atomic)
            try Data(fixture.state).write(to: URL(fileURLWithPath: fixture.statePath), options: .atomic)
            guard let (catalog, _, _) = try? CatalogCache.load(fixture.basePath) else { continue }
            for text in Self.queries {
                _ = catalog.run(try NoteQuery.parse(text, now: Self.now), sort: .path).map(\.record.path)
            }
            _ = catalog.records
        }
    }
}
