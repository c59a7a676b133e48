import Dispatch
import Foundation

/// The stamps of the notes a walk has listed so far, taken on a thread of their own while the
/// walk goes on listing folders (`VaultWalker.walk`): in a big vault the `fstatat` of the
/// first folders' notes overlaps the reading of the next ones instead of waiting for the
/// whole listing. The walk hands over batches (copies of their names and folders, so it may go
/// on growing its own lists); at the end it hands over the rest and takes batches itself beside
/// the thread until none is left, so the two share what the listing outran.
final class StampsAhead: @unchecked Sendable {
    /// The fewest notes handed over at once, by default.
    static let batch = 4_096
    /// The fewest notes handed over at once.
    let batch: Int
    /// The notes of each batch the rest is handed over in at the end.
    static let lastBatch = 512
    /// How many of the walk's notes have been handed over (the walk's thread only).
    private(set) var handed = 0

    /// One batch: `VaultWalker.stamps`' arguments for its notes.
    private struct Batch {
        let directories: [String]
        let descriptors: [Int32]
        let noteDirectory: [Int32]
        let names: [UInt8]
        let nameStart: [Int32]
        let viaLink: [Bool]
    }

    private let lock = NSLock()
    /// Under `lock`: the batches handed over, the next one to take, each one's stamps once
    /// taken, and whether the thread is running.
    private var batches: [Batch] = []
    private var next = 0
    private var done: [[FileStamp?]?] = []
    private var running = false
    /// Left by the thread when it finds no batch left.
    private let idle = DispatchGroup()

    init(batch: Int) {
        self.batch = batch
    }

    /// Hands over the notes from `handed` to `end` (by default the end of the lists:
    /// `VaultWalker.stamps`' arguments): their stamps are taken on the thread while the caller
    /// goes on.
    func hand(_ directories: [String], _ descriptors: [Int32], _ noteDirectory: [Int32], _ names: [UInt8],
              _ nameStart: [Int32], _ viaLink: [Bool], end: Int? = nil) {
        let range = handed..<(end ?? noteDirectory.count)
        guard !range.isEmpty else { return }
        let first = nameStart[range.lowerBound]
        let last = range.upperBound < nameStart.count ? Int(nameStart[range.upperBound]) : names.count
        let batch = Batch(directories: directories, descriptors: descriptors, noteDirectory: Array(noteDirectory[range]),
                          names: Array(names[Int(first)..<last]), nameStart: nameStart[range].map { $0 - first },
                          viaLink: Array(viaLink[range]))
        handed = range.upperBound
        let start = lock.withLock {
            batches.append(batch)
            done.append(nil)
            defer { running = true }
            return !running
        }
        if start {
            idle.enter()
            // A thread of its own, not the dispatch pool's: a walk on a pool thread waiting for a
            // block queued behind it could wait for ever once the pool's few threads all wait.
            Thread.detachNewThread { [self] in
                drain(asThread: true)
                idle.leave()
            }
        }
    }

    /// Takes batches until none is left (the thread, and the walk's thread at the end).
    private func drain(asThread: Bool) {
        while true {
            let taken: (Int, Batch)? = lock.withLock {
                guard next < batches.count else {
                    if asThread { running = false }
                    return nil
                }
                next += 1
                return (next - 1, batches[next - 1])
            }
            guard let (index, batch) = taken else { return }
            let stamps = VaultWalker.stamps(batch.directories, batch.descriptors, batch.noteDirectory, batch.names,
                                            batch.nameStart, batch.viaLink, spread: false)
            lock.withLock { done[index] = stamps }
        }
    }

    /// The stamps of every note of the lists (`hand`'s arguments, complete), in order: the rest
    /// is handed over in small batches, so that the two threads end together, and the batches
    /// not yet taken are taken on this thread beside the other. When nothing was handed over (a
    /// vault of fewer notes than a batch), all of them over the cores, with no thread started.
    func finish(_ directories: [String], _ descriptors: [Int32], _ noteDirectory: [Int32], _ names: [UInt8],
                _ nameStart: [Int32], _ viaLink: [Bool]) -> [FileStamp?] {
        if handed == 0 { return VaultWalker.stamps(directories, descriptors, noteDirectory, names, nameStart, viaLink) }
        while handed < noteDirectory.count {
            hand(directories, descriptors, noteDirectory, names, nameStart, viaLink,
                 end: min(noteDirectory.count, handed + Self.lastBatch))
        }
        wait()
        var stamps: [FileStamp?] = []
        stamps.reserveCapacity(noteDirectory.count)
        lock.withLock { for batch in done { stamps.append(contentsOf: batch ?? []) } }
        return stamps
    }

    /// Returns once every batch handed over has its stamps (taking batches on this thread too).
    func wait() {
        drain(asThread: false)
        idle.wait()
    }
}
