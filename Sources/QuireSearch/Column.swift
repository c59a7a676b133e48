import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Memory that holds the flat arrays of an index segment: either allocated here or a mapped
/// cache file. Frees (or unmaps) its memory in `deinit`; columns keep their owner alive.
final class ColumnMemory: @unchecked Sendable {
    let base: UnsafeRawPointer
    let byteCount: Int
    /// Whether this is a read-only mapping of a file (`SnapshotFile.read`): its pages can be
    /// given back at any time and are read again from the file when next used.
    let isReadOnlyFileMapping: Bool
    private let release: (UnsafeRawPointer, Int) -> Void

    init(base: UnsafeRawPointer, byteCount: Int, isReadOnlyFileMapping: Bool = false,
         release: @escaping (UnsafeRawPointer, Int) -> Void) {
        self.base = base
        self.byteCount = byteCount
        self.isReadOnlyFileMapping = isReadOnlyFileMapping
        self.release = release
    }

    /// Takes the pages read so far out of the process's resident memory, when this is a
    /// read-only file mapping (else nothing happens): they stay in the system's page cache and
    /// come back from it, unchanged, when next read. A resident process calls this after a
    /// pass that read much of a snapshot (every path, every record) so that its memory holds
    /// what it keeps, not everything it once looked at.
    func releaseReadPages() {
        guard isReadOnlyFileMapping, byteCount > 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), byteCount, MADV_DONTNEED)
    }

    /// Copies `bytes` into newly allocated, 8-byte aligned memory.
    convenience init(copying bytes: UnsafeRawBufferPointer) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 8), alignment: 8)
        if let source = bytes.baseAddress, bytes.count > 0 {
            memory.copyMemory(from: source, byteCount: bytes.count)
        }
        self.init(base: UnsafeRawPointer(memory), byteCount: bytes.count) { pointer, _ in
            UnsafeMutableRawPointer(mutating: pointer).deallocate()
        }
    }

    deinit {
        release(base, byteCount)
    }
}

/// A read-only array of fixed-size values living in `ColumnMemory` (no copy when loaded from a
/// mapped cache file).
struct FlatColumn<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The memory the values live in (kept alive by the column).
    let memory: ColumnMemory
    let pointer: UnsafePointer<Element>
    let count: Int

    init(memory: ColumnMemory, byteOffset: Int, count: Int) {
        self.memory = memory
        self.pointer = (memory.base + byteOffset).assumingMemoryBound(to: Element.self)
        self.count = count
    }

    /// A column holding a copy of `values`.
    init(_ values: [Element]) {
        let memory = values.withUnsafeBytes { ColumnMemory(copying: $0) }
        self.init(memory: memory, byteOffset: 0, count: values.count)
    }

    @inline(__always)
    subscript(index: Int) -> Element { pointer[index] }

    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: pointer, count: count) }
}

/// A column being filled: allocated once, written through `pointer` (by several threads at
/// once, each to its own places), then read as `column`.
struct WritableColumn<Element: BitwiseCopyable>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    /// The column over the same memory (which it keeps alive).
    let column: FlatColumn<Element>

    /// `count` uninitialised values. A large column is mapped in huge pages where the system
    /// allows it (`hugePages`): builders write it in many places at once, and small pages would
    /// make nearly every write a TLB miss (and one page fault per 4 KB). A column written in a
    /// few runs from start to end (a merge's) asks for none: a process's first huge pages can
    /// cost far more to fault in than small ones (6 times more on this project's VMs).
    init(count: Int, hugePages: Bool = true) {
        let byteCount = count * MemoryLayout<Element>.stride
        let owner: ColumnMemory
        let hugePage = 2 << 20
        let mappedSize = (byteCount + hugePage - 1) / hugePage * hugePage
        if hugePages, byteCount >= 2 * hugePage,
           let mapped = mmap(nil, mappedSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
           mapped != MAP_FAILED {
            _ = madvise(mapped, mappedSize, MADV_HUGEPAGE)  // a hint: small pages work too
            owner = ColumnMemory(base: UnsafeRawPointer(mapped), byteCount: byteCount) { base, _ in
                munmap(UnsafeMutableRawPointer(mutating: base), mappedSize)
            }
        } else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 8), alignment: 8)
            owner = ColumnMemory(base: UnsafeRawPointer(memory), byteCount: byteCount) { base, _ in
                UnsafeMutableRawPointer(mutating: base).deallocate()
            }
        }
        pointer = UnsafeMutableRawPointer(mutating: owner.base).bindMemory(to: Element.self, capacity: max(count, 1))
        column = FlatColumn(memory: owner, byteOffset: 0, count: count)
    }
}

/// Offsets, ids and lengths.
typealias Column = FlatColumn<UInt32>
/// Term bytes.
typealias ByteColumn = FlatColumn<UInt8>

extension FlatColumn where Element == UInt32 {
    /// The range `self[index]..<self[index + 1]` of an offsets column, or an empty range when a
    /// damaged cache file gives offsets out of order or past `limit`: columns loaded from a file
    /// are checked where they are used, so loading does not read every offset.
    @inline(__always)
    func span(_ index: Int, limit: Int) -> Range<Int> {
        guard index >= 0, index + 1 < count else { return 0..<0 }
        let start = Int(pointer[index])
        let end = Int(pointer[index + 1])
        return start <= end && end <= limit ? start..<end : 0..<0
    }
}
