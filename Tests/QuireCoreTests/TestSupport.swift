import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import QuireCore

/// Helpers shared by the QuireCore tests.
enum TestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// Real-world notes written by other people (Dendron and Hugo, see Tests/Corpora/README.md).
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpora")
    /// Whether the corpora are there (they are in the repository; a partial checkout may lack them).
    static let hasCorpora = FileManager.default.fileExists(atPath: corpora.appendingPathComponent("README.md").path)
    /// Why the corpus tests are skipped when `hasCorpora` is false.
    static let corporaMissing: Comment = "Tests/Corpora is missing: the real-world corpus tests cannot run"
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    /// A clock a second ahead of the real one, for the racily-clean rule: what a test has just
    /// written is past `FileStamp.racyWindow` and trusted, with no wait (sound while the next
    /// change comes after `waitForFileClockTick`).
    static let settledClock: @Sendable () -> Int64 = { FileStamp.now() + 1_000_000_000 }

    /// Returns once the file system's clock has moved on: the probe file at `probe` (outside
    /// what the test walks) is touched until its change time moves, so any change made afterwards
    /// gets a later change time than every stamp recorded before the call. At most one tick of
    /// the kernel's clock, a few milliseconds.
    static func waitForFileClockTick(probe: String) {
        let descriptor = open(probe, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { Issue.record("cannot make \(probe)"); return }
        defer { close(descriptor) }
        var status = stat()
        func touched() -> Int64 {
            futimens(descriptor, nil)
            fstat(descriptor, &status)
            return Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        }
        let first = touched()
        let deadline = Date().addingTimeInterval(5)
        while touched() == first {
            if Date() > deadline { Issue.record("the file clock did not move in 5 s"); return }
        }
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    static func parse(_ text: String, path: String = "note.md", timeZone: TimeZone = utc) -> Note {
        NoteParser.parse(Data(text.utf8), path: path, timeZone: timeZone)
    }

    static func document(_ text: String, timeZone: TimeZone = utc) -> NoteDocument {
        NoteDocument(data: Data(text.utf8), timeZone: timeZone)
    }

    static func text(_ document: NoteDocument) -> String {
        String(decoding: document.serialized(), as: UTF8.self)
    }

    /// Every `.md` file below `root` (empty when it does not exist).
    static func markdownFiles(under root: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }
            .sorted { $0.path < $1.path }
    }

    /// A UTC date from components.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0,
                     _ second: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(Timestamp.civilSeconds(year: year, month: month, day: day,
                                                                  hour: hour, minute: minute, second: second)))
    }
}
