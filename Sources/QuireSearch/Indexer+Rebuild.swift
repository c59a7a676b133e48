import Dispatch
import QuireCore

extension Indexer {
    /// Builds `catalog` from nothing (no note known before): the paths in catalog order are cut
    /// into slices, and each core reads, parses and tokenizes the notes of one slice after
    /// another, folding each note into its slice's part of the index at once — no note's
    /// tokens are kept. The slices then become one segment (`SegmentBuilder`), written straight
    /// into a new base snapshot when `snapshot` says where.
    func rebuild(_ catalog: inout Catalog, stamps: inout [ExactPath: StoredStamp], paths: [String],
                 given: [FileStamp?], racyLimit: Int64) -> IndexReport {
        // By bytes: two names equal under Unicode normalization are two files, so two notes.
        var order = paths.indices.sorted { ExactPath.precedes(paths[$0], paths[$1]) }
        // A path given twice is one note (the later one).
        order = order.indices.filter {
            $0 + 1 == order.count || !ExactPath.same(paths[order[$0]], paths[order[$0 + 1]])
        }.map { order[$0] }
        progress?.begin(.indexing, total: order.count)
        let parsed = parseIntoSlices(paths: paths, order: order, given: given, known: nil, racyLimit: racyLimit)
        var slices = parsed.slices
        let outcomes = parsed.outcomes
        progress?.begin(.writing)
        if let target = snapshot, !slices.isEmpty {
            do throws(CacheError) {
                let (segment, written) = try SegmentBuilder.build(slices: &slices, snapshot: target.path)
                catalog = Catalog(segment: segment)
                target.written = written
            } catch {
                // Writing failed once the slices were used up: everything again, in memory.
                return Indexer(root: root, parse: parse).rebuild(&catalog, stamps: &stamps, paths: paths, given: given,
                                                                 racyLimit: racyLimit)
            }
        } else {
            catalog = Catalog(segment: SegmentBuilder.build(slices: &slices))
        }
        // The stamps and the report once the segment is built (not beside the slices at their peak).
        var report = IndexReport()
        for (path, outcome) in zip(paths, outcomes) {
            switch outcome {
            case .parsed?:
                report.added.append(path)
            case .failed(let failure, _, _, _)?:
                report.failed.append(failure)
            default:
                break
            }
        }
        if let target = snapshot {
            // By slot, for the state file: no table by path (hashing every path), no sort of the
            // paths when they came in path order (as the CLI's walk gives them).
            target.rebuilt = Self.slotStamps(paths: paths, order: order, outcomes: outcomes)
        } else {
            for (path, outcome) in zip(paths, outcomes) {
                switch outcome {
                case .parsed(_, let stored, _)?:
                    stamps[ExactPath(path)] = stored
                case .failed(_, let note, let stored, _)? where note != nil:
                    if let stored { stamps[ExactPath(path)] = stored }
                default:
                    break
                }
            }
        }
        report.total = catalog.count
        report.notesWithProblems = catalog.problemCount
        return report
    }

    /// Reads, parses and tokenizes the notes at `order` (positions into `paths`) on every core:
    /// the paths are cut into runs of consecutive notes, one per core (`SliceSchedule`: a core
    /// done with its run takes half of the largest rest), and each core folds every note it
    /// parses straight into the slice of its run — no note's tokens are kept. Returns the slices
    /// holding any note, in the order of their notes in `order`, and each path's outcome.
    /// `known`: the stamps the catalog holds (nil: none, a rebuild, whose slices then reserve
    /// room for all the notes' bytes: every note is parsed).
    func parseIntoSlices(paths: [String], order: [Int], given: [FileStamp?], known: [ExactPath: StoredStamp]?,
                         racyLimit: Int64) -> (slices: [SegmentSlice], outcomes: [Outcome<Void>?]) {
        let cores = order.isEmpty ? 0 : SegmentBuilder.sliceCount(documents: order.count, minimumSize: 256)
        let weights = order.map { ($0 < given.count ? Int(clamping: given[$0]?.size ?? 0) : 0) &+ Self.noteWeight }
        let bounds = Self.sliceBounds(weights: weights, slices: cores)
        let schedule = SliceSchedule(bounds: bounds, weights: weights,
                                     minimumSplit: Self.minimumSplit(totalWeight: weights.reduce(0, &+)))
        // Each core's slices with the note each begins at: its own run's, then one per run it took over.
        var made = [[(start: Int, slice: SegmentSlice)]](repeating: [], count: cores)
        var outcomes = [Outcome<Void>?](repeating: nil, count: paths.count)
        outcomes.withUnsafeMutableBufferPointer { outcomeBuffer in
            let results = outcomeBuffer
            made.withUnsafeMutableBufferPointer { madeBuffer in
                let slots = madeBuffer
                ParallelMap.perform(iterations: slots.count) { worker in
                    var start = bounds[worker]
                    var run = bounds[worker]..<bounds[worker + 1]
                    var uncounted = 0
                    while true {
                        var slice = SegmentSlice()
                        if !given.isEmpty && known == nil {
                            // Room for the forward index and the records without copies.
                            slice.reserve(markdownBytes: schedule.weight(of: run) - run.count * Self.noteWeight)
                        }
                        while let position = schedule.next(worker: worker) {
                            let index = order[position]
                            results[index] = check(paths[index], known?[ExactPath(paths[index])],
                                                   walked: index < given.count ? given[index] : nil,
                                                   racyLimit: racyLimit) { slice.add($0) }
                            uncounted += 1
                            // Counted per 64 notes: no shared write per note on the hot path.
                            if uncounted == 64 {
                                progress?.advance(by: uncounted)
                                uncounted = 0
                            }
                        }
                        slice.sealTerms()  // its term table's slots are not needed any more
                        slots[worker].append((start, slice))
                        guard let taken = schedule.split(for: worker) else { break }
                        start = taken.lowerBound
                        run = taken
                    }
                    progress?.advance(by: uncounted)
                }
            }
        }
        let slices = made.joined().sorted { $0.start < $1.start }.map(\.slice).filter { $0.count > 0 }
        return (slices, outcomes)
    }

    /// Each document's path and stamp by slot — the documents of `order` (positions into
    /// `paths`) that were parsed or listed with a problem, in that order, as the slices took
    /// them — and the slots in `PathOrder`: read off `paths` when they come in that order (each
    /// path before the next), else sorted.
    static func slotStamps(paths: [String], order: [Int], outcomes: [Outcome<Void>?]) -> RebuiltStamps {
        var slotPaths: [String] = []
        var stamps: [StoredStamp?] = []
        var slotOf = [Int32](repeating: -1, count: paths.count)
        for index in order {
            switch outcomes[index] {
            case .parsed(_, let stored, _)?:
                slotOf[index] = Int32(slotPaths.count)
                slotPaths.append(paths[index])
                stamps.append(stored)
            case .failed(_, let note, let stored, _)? where note != nil:
                slotOf[index] = Int32(slotPaths.count)
                slotPaths.append(paths[index])
                stamps.append(stored)
            default:
                break
            }
        }
        let inPathOrder = zip(paths, paths.dropFirst()).allSatisfy { PathOrder.precedes($0, $1) }
        let pathOrder: [UInt32]
        if inPathOrder {
            pathOrder = slotOf.compactMap { $0 >= 0 ? UInt32($0) : nil }
        } else {
            pathOrder = slotPaths.indices.sorted { PathOrder.precedes(slotPaths[$0], slotPaths[$1]) }.map { UInt32($0) }
        }
        return RebuiltStamps(paths: slotPaths, stamps: stamps, order: pathOrder)
    }

    /// What a note weighs when a rebuild shares its notes out: its size and 1 KiB more, for what
    /// every note costs whatever its size.
    static let noteWeight = 1024

    /// The least rest of a run that a core done with its own takes half of (`SliceSchedule`):
    /// a sixty-fourth of all the notes' weight, at least 128 KiB — so the cores end at most
    /// about a hundred-and-twenty-eighth of the work apart, and a new slice, which learns the
    /// vocabulary anew, is made only for work worth it.
    static func minimumSplit(totalWeight: Int) -> Int {
        max(totalWeight / 64, 128 << 10)
    }

    /// Where each of `slices` runs of consecutive notes begins, and where the last ends
    /// (`slices + 1` offsets into `weights`): cut so that each weighs about as much (`weights`,
    /// see `noteWeight`), so that each core, one run each, has about as much to do. Every run
    /// holds at least one note when there are as many notes as runs.
    static func sliceBounds(weights: [Int], slices: Int) -> [Int] {
        guard slices > 0 else { return [0] }
        let total = weights.reduce(0) { $0 + $1 }
        var bounds = [0]
        var sum = 0
        var index = 0
        for slice in 1..<slices {
            let target = total * slice / slices
            let latest = max(weights.count - (slices - slice), 0)  // a note left for each later slice
            // A note belongs here when its middle comes before the target; the first always does.
            while index < latest && (index == bounds[slice - 1] || sum + weights[index] / 2 <= target) {
                sum += weights[index]
                index += 1
            }
            bounds.append(index)
        }
        bounds.append(weights.count)
        return bounds
    }
}
