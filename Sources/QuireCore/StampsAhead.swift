import Dispatch

/// The stamps of the notes a walk has listed so far, taken on a thread of its own while the
/// walk goes on listing folders (`VaultWalker.walk`): in a big vault the `fstatat` of the
/// first folders' notes overlaps the reading of the next ones instead of waiting for the
/// whole listing. The walk hands over whole batches (copies of their names and folders, so it
/// may go on growing its own lists) and takes the rest itself, over the cores, at the end.
final class StampsAhead: @unchecked Sendable {
    /// The fewest notes handed over at once, by default.
    static let batch = 4_096
    /// The fewest notes handed over at once.
    let batch: Int

    private let queue = DispatchQueue(label: "quire.walk.stamps")
    /// Each batch's stamps in the order handed over; written on `queue` only.
    private var done: [[FileStamp?]] = []
    /// How many of the walk's notes have been handed over (the walk's thread only).
    private(set) var handed = 0

    init(batch: Int) {
        self.batch = batch
    }

    /// Hands over the notes from `handed` to the end of the lists (`VaultWalker.stamps`'
    /// arguments): their stamps are taken on the thread while the caller goes on.
    func hand(_ directories: [String], _ descriptors: [Int32], _ noteDirectory: [Int32], _ names: [UInt8],
              _ nameStart: [Int32], _ viaLink: [Bool]) {
        let range = handed..<noteDirectory.count
        guard !range.isEmpty else { return }
        let first = nameStart[range.lowerBound]
        let batchNames = Array(names[Int(first)...])
        let starts = nameStart[range].map { $0 - first }
        let folders = Array(noteDirectory[range]), linked = Array(viaLink[range])
        queue.async { [self] in
            done.append(VaultWalker.stamps(directories, descriptors, folders, batchNames, starts, linked, spread: false))
        }
        handed = range.upperBound
    }

    /// The stamps of every note handed over, in order, once the thread has taken them all.
    func finish() -> [FileStamp?] {
        queue.sync { Array(done.joined()) }
    }

    /// Returns once the thread has taken every stamp handed over.
    func wait() {
        queue.sync {}
    }
}
