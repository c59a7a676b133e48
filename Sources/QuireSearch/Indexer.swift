import Dispatch
import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Turns a file's bytes into a note; QuireCore's `NoteParser.parse` in production.
public typealias NoteParsing = @Sendable (Data, String) throws -> Note

/// Brings a catalog up to date with the files of a vault: compares each file's stamp with the
/// stored one, hashes the content on a mismatch and parses only files whose content changed.
struct Indexer {
    let root: String
    let parse: NoteParsing
    /// Where a rebuild writes the base snapshot as it builds it (nil: in memory only).
    var snapshot: SnapshotTarget? = nil
    /// Where the pass reports how many notes it has looked at (nil: nowhere).
    var progress: IndexProgress? = nil
    /// The clock the racily-clean rule reads, in nanoseconds since 1970.
    var clock: @Sendable () -> Int64 = FileStamp.now

    /// What became of one path (`known`: the cache had it). Indirect: most paths are
    /// `unchanged`, and the array of outcomes should not hold a whole note per path.
    /// `Analyzed`: what became of the parsed note (an `AnalyzedNote`, or nothing when it was
    /// folded into a segment at once).
    indirect enum Outcome<Analyzed> {
        case unchanged
        case touched(StoredStamp)
        case parsed(Analyzed, StoredStamp, known: Bool)
        case failed(IndexFailure, Analyzed?, StoredStamp?, known: Bool)
        case gone(known: Bool)
    }

    /// Updates `catalog` and `stamps` to `paths` (vault-relative, unique) and reports what it did.
    /// `given`: each path's stamp as the walk saw it (empty, or nil for one: looked at here).
    /// `complete`: `paths` are all the notes (others are removed); otherwise only `paths` are
    /// looked at (a path that is gone is removed) and `removing` names paths known to be gone.
    /// A rebuild (no note known before) given a `snapshot` target leaves `stamps` empty and
    /// puts them, by slot, in `snapshot.rebuilt`.
    func update(_ catalog: inout Catalog, stamps: inout [ExactPath: StoredStamp], paths: [String],
                given: [FileStamp?] = [], complete: Bool = true, removing: [String] = []) -> IndexReport {
        var report = IndexReport()
        let racyLimit = clock() - FileStamp.racyWindow
        let known = stamps
        if catalog.count == 0 && known.isEmpty && removing.isEmpty {
            return rebuild(&catalog, stamps: &stamps, paths: paths, given: given, racyLimit: racyLimit)
        }
        progress?.begin(.indexing, total: paths.count)
        // The notes whose content changed are parsed and tokenized straight into slices, as a
        // rebuild does (no note or token stream held until their segment is built); into an
        // empty catalog, in catalog order. A path given twice is one note (the later one): the
        // segment of an update holds one document a path.
        var seen = Set<ExactPath>(minimumCapacity: paths.count)
        var order = paths.indices.reversed().filter { seen.insert(ExactPath(paths[$0])).inserted }.reversed().map { $0 }
        if catalog.count == 0 { order.sort { ExactPath.precedes(paths[$0], paths[$1]) } }
        let parsed = parseIntoSlices(paths: paths, order: order, given: given, known: known, racyLimit: racyLimit)
        var slices = parsed.slices
        var found = 0
        for (path, outcome) in zip(paths, parsed.outcomes) {
            switch outcome {
            case .unchanged?:
                found += 1
            case .touched(let stored)?:
                found += 1
                stamps[ExactPath(path)] = stored
                report.touched += 1
            case .parsed(_, let stored, let isKnown)?:
                if isKnown { found += 1 }
                stamps[ExactPath(path)] = stored
                if isKnown { report.changed.append(path) } else { report.added.append(path) }
            case .failed(let failure, let note, let stored, let isKnown)?:
                if isKnown { found += 1 }
                report.failed.append(failure)
                if note != nil, let stored {
                    stamps[ExactPath(path)] = stored
                } else if isKnown {
                    stamps[ExactPath(path)] = nil
                    report.removed.append(path)
                }
            case .gone(let isKnown)?:
                if isKnown {
                    found += 1
                    stamps[ExactPath(path)] = nil
                    report.removed.append(path)
                }
            case nil:
                break
            }
        }
        for path in removing where stamps.removeValue(forKey: ExactPath(path)) != nil {
            report.removed.append(path)
        }
        if complete && found != known.count {
            let wanted = Set(paths.map(ExactPath.init))
            for path in known.keys where !wanted.contains(path) {
                stamps[path] = nil
                report.removed.append(path.string)
            }
        }
        report.removed.sort(by: ExactPath.precedes)
        if catalog.count == 0 && report.removed.isEmpty {
            catalog = Catalog(segment: SegmentBuilder.build(slices: &slices))
        } else if !slices.isEmpty || !report.removed.isEmpty {
            // With a snapshot to write, the snapshot's writing compacts (straight into the file).
            catalog.apply(added: SegmentBuilder.build(slices: &slices), removals: report.removed, compacting: snapshot == nil)
        }
        report.total = catalog.count
        report.notesWithProblems = catalog.problemCount
        return report
    }

    /// Looks at one file: its stamp, then (when that changed) its content, then (when that
    /// changed) the parsed note, which `analyze` turns into what the outcome carries.
    func check<Analyzed>(_ path: String, _ stored: StoredStamp?, walked: FileStamp?, racyLimit: Int64,
                         analyze: (Note) -> Analyzed) -> Outcome<Analyzed> {
        let full = root + "/" + path
        let stamp: FileStamp
        if let walked {
            stamp = walked
        } else {
            switch FileStamp.read(full) {
            case .success(let value): stamp = value
            case .failure(.missing): return .gone(known: stored != nil)
            case .failure(.failed(let reason)):
                return .failed(IndexFailure(path: path, reason: reason), nil, nil, known: stored != nil)
            }
        }
        if let stored, stored.stamp == stamp { return .unchanged }
        let data: Data
        // The walk's stamp sizes the buffer (a file that changed since is still read whole).
        switch Self.readFile(full, size: walked?.size) {
        case .success(let bytes): data = bytes
        case .failure(let reason):
            let note = analyze(Self.placeholder(path, problem: reason.description))
            return .failed(IndexFailure(path: path, reason: reason), note,
                           StoredStamp(stamp: racy(stamp, racyLimit), contentHash: 0), known: stored != nil)
        }
        let hash = ContentHash.hash(data)
        let fresh = StoredStamp(stamp: racy(stamp, racyLimit), contentHash: hash)
        if let stored, stored.contentHash == hash { return .touched(fresh) }
        do {
            var note = try parse(data, path)
            note.path = path
            note.fillMissingDates(modified: stamp.modified)
            return .parsed(analyze(note), fresh, known: stored != nil)
        } catch {
            let reason = IndexFailure.Reason.unparsable(String(describing: error))
            let note = analyze(Self.placeholder(path, problem: reason.description))
            return .failed(IndexFailure(path: path, reason: reason), note, fresh, known: stored != nil)
        }
    }

    /// A stamp changed so recently that a further change in the same clock tick could keep it
    /// identical is stored as "always check the content" (git's racily-clean rule).
    func racy(_ stamp: FileStamp, _ limit: Int64) -> FileStamp {
        guard stamp.changedNanoseconds >= limit || stamp.modifiedNanoseconds >= limit else { return stamp }
        var marked = stamp
        marked.size = UInt64.max
        return marked
    }

    /// A note for a file that could not be read or parsed: listed with its problem.
    static func placeholder(_ path: String, problem: String) -> Note {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : ""
        let title = name.hasSuffix(".md") ? String(name.dropLast(3)) : name
        return Note(path: path, folder: folder, title: title,
                    problems: [NoteProblem(kind: .unreadable, line: nil, message: problem)])
    }

    /// Reads a whole file (sized by `fstat`, or by `size` when the caller has just seen the
    /// file's size, which saves a system call per note; read straight into memory the result
    /// then owns: `Data(count:)` would zero every byte first). The file is read to its end
    /// whatever the size said; a read that stops short of the buffer with exactly that size read
    /// is the end of a regular file, where another read would return nothing (a system call
    /// per note saved), and any other stop reads on.
    static func readFile(_ path: String, size: UInt64? = nil) -> Result<Data, IndexFailure.Reason> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.cannotRead(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var capacity: Int
        if let size, size < UInt64(Int.max / 2) {
            capacity = Int(size) + 1
        } else {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return .failure(.cannotRead(String(cString: strerror(errno)))) }
            capacity = Int(status.st_size) + 1
        }
        let expected = capacity - 1
        // Freed here on failure, else by the returned `Data` (`.free`).
        guard var buffer = malloc(capacity) else { return .failure(.cannotRead("out of memory")) }
        var filled = 0
        while true {
            if filled == capacity {
                capacity += 65_536
                guard let larger = realloc(buffer, capacity) else {
                    free(buffer)
                    return .failure(.cannotRead("out of memory"))
                }
                buffer = larger
            }
            let count = read(descriptor, buffer + filled, capacity - filled)
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                free(buffer)
                return .failure(.cannotRead(reason))
            }
            let stoppedShort = count < capacity - filled
            filled += count
            if count == 0 || (stoppedShort && filled == expected) {
                return .success(Data(bytesNoCopy: buffer, count: filled, deallocator: .free))
            }
        }
    }
}

/// Where a rebuild may write the base snapshot file while it builds the segment
/// (`SegmentBuilder.build(slices:snapshot:)`), and what it wrote there.
final class SnapshotTarget: @unchecked Sendable {
    let path: String
    /// Set by a rebuild that wrote the file.
    var written: SegmentBuilder.WrittenBase?
    /// Set by a rebuild given a target (written or not), which then leaves the table of stamps
    /// by path empty: each slot's stamp and the slots in path order, for the state file.
    var rebuilt: RebuiltStamps?

    init(path: String) {
        self.path = path
    }
}

/// A rebuild's stamps by slot (the slots of the catalog it built): each slot's path and stamp,
/// and the slots in `PathOrder`, as the state file stores them (`CatalogCache.save`).
struct RebuiltStamps {
    let paths: [String]
    let stamps: [StoredStamp?]
    let order: [UInt32]

    /// The stamps by path.
    var table: [ExactPath: StoredStamp] {
        var table: [ExactPath: StoredStamp] = [:]
        table.reserveCapacity(paths.count)
        for (path, stamp) in zip(paths, stamps) { table[ExactPath(path)] = stamp }
        return table
    }
}
