import Dispatch
import QuireCore

extension Indexer {
    /// Builds `catalog` from nothing (no note known before): the paths in catalog order are cut
    /// into slices, and each core reads, parses and tokenizes the notes of one slice after
    /// another, folding each note into its slice's part of the index at once — no note's
    /// tokens are kept. The slices then become one segment (`SegmentBuilder`), written straight
    /// into a new base snapshot when `snapshot` says where.
    func rebuild(_ catalog: inout Catalog, stamps: inout [String: StoredStamp], paths: [String],
                 given: [FileStamp?], racyLimit: Int64) -> IndexReport {
        var order = paths.indices.sorted { paths[$0] < paths[$1] }
        // A path given twice is one note (the later one).
        order = order.indices.filter { $0 + 1 == order.count || paths[order[$0]] != paths[order[$0 + 1]] }.map { order[$0] }
        let sliceCount = SegmentBuilder.sliceCount(documents: order.count, minimumSize: 256)
        let size = (order.count + sliceCount - 1) / max(sliceCount, 1)
        var slices = [SegmentSlice](repeating: SegmentSlice(), count: order.isEmpty ? 0 : sliceCount)
        if !given.isEmpty {
            // Room for the forward index and the records without copies.
            for slice in slices.indices {
                let bytes = order[min(slice * size, order.count)..<min(slice * size + size, order.count)]
                    .reduce(0) { $0 + Int(clamping: $1 < given.count ? given[$1]?.size ?? 0 : 0) }
                slices[slice].reserve(markdownBytes: bytes)
            }
        }
        progress?.begin(.indexing, total: order.count)
        var outcomes = [Outcome<Void>?](repeating: nil, count: paths.count)
        outcomes.withUnsafeMutableBufferPointer { outcomeBuffer in
            let results = outcomeBuffer
            slices.withUnsafeMutableBufferPointer { sliceBuffer in
                let slots = sliceBuffer
                ParallelMap.perform(iterations: slots.count) { slice in
                    var uncounted = 0
                    for index in order[min(slice * size, order.count)..<min(slice * size + size, order.count)] {
                        results[index] = check(paths[index], nil, walked: index < given.count ? given[index] : nil,
                                               racyLimit: racyLimit) { slots[slice].add($0) }
                        uncounted += 1
                        // Counted per 64 notes: no shared write per note on the hot path.
                        if uncounted == 64 {
                            progress?.advance(by: uncounted)
                            uncounted = 0
                        }
                    }
                    progress?.advance(by: uncounted)
                    slots[slice].sealTerms()  // its term table's slots are not needed any more
                }
            }
        }
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
            case .parsed(_, let stored, _)?:
                stamps[path] = stored
                report.added.append(path)
            case .failed(let failure, let note, let stored, _)?:
                report.failed.append(failure)
                if note != nil, let stored { stamps[path] = stored }
            default:
                break
            }
        }
        report.total = catalog.count
        report.notesWithProblems = catalog.problemCount
        return report
    }
}
