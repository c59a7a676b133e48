import Foundation
import Testing
@testable import QuireSearch

/// `Indexer.readFile` gives a file's bytes exactly, whatever its size says.
struct ReadFileTests {
    @Test func readsWholeFilesOfEverySize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-readfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in [0, 1, 7, 4096, 65_537, 300_001] {
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
            let file = folder.appendingPathComponent("\(size).md")
            try bytes.write(to: file)
            guard case .success(let read) = Indexer.readFile(file.path) else {
                Issue.record("\(size) bytes: not read")
                continue
            }
            #expect(read == bytes, "\(size) bytes")
        }
        guard case .failure = Indexer.readFile(folder.appendingPathComponent("missing.md").path) else {
            Issue.record("a missing file was read")
            return
        }
    }

    /// The size the walk saw only sizes the buffer: a file that grew or shrank since, or a
    /// size that is plainly wrong, is still read whole and exactly.
    @Test func aSizeHintThatIsWrongStillReadsTheWholeFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-readhint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in [0, 5, 4096, 200_003] {
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            let file = folder.appendingPathComponent("\(size).md")
            try bytes.write(to: file)
            for hint: UInt64 in [0, 1, UInt64(size), UInt64(size) + 1, UInt64(size) * 3 + 10, UInt64.max] {
                guard case .success(let read) = Indexer.readFile(file.path, size: hint) else {
                    Issue.record("\(size) bytes, hint \(hint): not read")
                    continue
                }
                #expect(read == bytes, "\(size) bytes, hint \(hint)")
            }
        }
    }

    /// A file longer than `fstat` says (procfs says 0) is read to its end: the buffer grows.
    @Test func readsPastTheStatedSize() throws {
        #if os(Linux)
        guard case .success(let read) = Indexer.readFile("/proc/self/maps") else {
            Issue.record("/proc/self/maps not read")
            return
        }
        let expected = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/maps"))
        #expect(read.count > 100)
        #expect(String(decoding: read.prefix(40), as: UTF8.self) == String(decoding: expected.prefix(40), as: UTF8.self))
        #endif
    }
}
