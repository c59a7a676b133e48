import Foundation
import QuireCore
import Synchronization
@testable import QuireSearch

/// A thread-safe count.
final class Counter: Sendable {
    private let value = Mutex<Int>(0)

    func add() { value.withLock { $0 += 1 } }

    func load(ordering: Void = ()) -> Int { value.withLock { $0 } }
}

/// A temporary vault directory with a tiny front-matter parser for tests.
final class TestVault {
    let root: String
    let parses = Counter()

    init() throws {
        root = NSTemporaryDirectory() + "quire-search-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.removeItem(atPath: root + ".clock-probe")
    }

    func write(_ path: String, _ text: String) throws {
        let full = root + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + path)
    }

    func modificationDate(_ path: String) throws -> Date {
        let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
        return (attributes[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
    }

    func setModificationDate(_ path: String, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: root + "/" + path)
    }

    /// Every `.md` file below the root, outside hidden folders, sorted.
    func notePaths() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix(".") || path.contains("/.") { continue }
            if path.hasSuffix(".md") { paths.append(path) }
        }
        return paths.sorted()
    }

    var parser: NoteParsing {
        { [parses] data, path in
            parses.add()
            return try TestVault.parse(data, path: path)
        }
    }

    func open(rebuild: Bool = false, clock: @escaping @Sendable () -> Int64 = FileStamp.now) -> CatalogStore {
        CatalogStore(root: root, paths: notePaths(), rebuild: rebuild, parse: parser, clock: clock)
    }

    /// A clock a second ahead of the real one: the files a test has just written are past the
    /// racily-clean window (`FileStamp.racyWindow`), so their stamps are stored as they are with
    /// no wait. Only for a test that does not rewrite a file in the same size afterwards (two
    /// writes in one clock tick can leave the same stamp: that is what the window is for).
    static let settledClock: @Sendable () -> Int64 = { FileStamp.now() + 1_000_000_000 }

    /// Returns once the file system's clock has moved on (a probe beside the vault is touched
    /// until its change time moves, at most one tick of the kernel's clock): a file changed
    /// afterwards never keeps a stamp that `settledClock` let a store record before the call.
    func waitForFileClockTick() throws {
        let probe = root + ".clock-probe"
        _ = FileManager.default.createFile(atPath: probe, contents: nil)
        func touched() throws -> Int64 {
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: probe)
            return try FileStamp.read(probe).get().changedNanoseconds
        }
        let first = try touched()
        let deadline = Date().addingTimeInterval(5)
        while try touched() == first, Date() < deadline {}
    }

    struct Unparsable: Error, CustomStringConvertible {
        var description: String { "binary junk" }
    }

    /// `---` fenced `key: value` lines (title, tags as `a, b`, project, draft); the rest is body.
    static func parse(_ data: Data, path: String) throws -> Note {
        guard let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") else { throw Unparsable() }
        let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : ""
        var note = Note(path: path, folder: folder)
        note.title = String((path.split(separator: "/").last ?? "").dropLast(3))
        var lines = text.components(separatedBy: "\n")
        if lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") {
            for line in lines[1..<close] {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else {
                    note.problems.append(NoteProblem(kind: .invalidYAML, line: nil, message: "bad line"))
                    continue
                }
                switch parts[0] {
                case "title": note.title = parts[1]
                case "tags": note.tags = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                case "project": note.project = parts[1]
                case "draft": note.draft = parts[1] == "true"
                default: note.frontMatter.append(FrontMatterEntry(key: parts[0], value: .string(parts[1])))
                }
            }
            lines.removeSubrange(0...close)
        }
        note.body = lines.joined(separator: "\n")
        note.words = Tokenizer.terms(in: note.body).count
        return note
    }
}
