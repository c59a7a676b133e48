#if canImport(Glibc)
import Glibc
#endif

/// A slice's forward index: its documents' local term ids and field separators, two bytes each
/// while the slice has fewer than 65,535 terms (most slices: it is the largest array a rebuild
/// holds until the end), four from the first term beyond (the ids so far are widened once).
/// The separator is the element type's largest value.
///
/// The ids live in an anonymous mapping this type makes and owns (`TokenMapping`), not in a
/// Swift array, so that the builder's last pass may give the pages it has read back to the
/// system while it goes (`releasePages`): a slice's forward index shrinks while the segment's
/// grows, and no memory that the allocator or an array owns is touched. A copy shares the
/// mapping until either is changed (copy on write).
struct LocalTokens {
    private var mapping: TokenMapping?
    /// Number of ids and separators.
    private(set) var count = 0
    /// Ids there is room for at the current width.
    private var capacity = 0
    /// Bytes per id: 2, or 4 once an id did not fit.
    private var width = 2

    /// Whether the ids are kept in four bytes each.
    var isWide: Bool { width == 4 }

    /// Makes room for `tokens` ids without copies.
    mutating func reserveCapacity(_ tokens: Int) {
        if tokens > capacity { remap(room: tokens, width: width) }
    }

    /// Makes the mapping this value's own (copied when a copy of this value shares it), so that
    /// `appendExclusive` may be called until this value is next copied.
    mutating func makeExclusive() {
        if !isKnownUniquelyReferenced(&mapping) { remap(room: count + 1, width: width) }
    }

    /// Appends an id to a value whose mapping is its own (`makeExclusive`, no copy made since):
    /// the check is made once per document, not per token, where it costs a call into the runtime.
    @inline(__always)
    mutating func appendExclusive(_ id: UInt32) {
        if count == capacity { remap(room: count + 1, width: width) }
        guard let base = mapping?.base else { return }
        if width == 2 && id < UInt32(UInt16.max) {
            base.storeBytes(of: UInt16(truncatingIfNeeded: id), toByteOffset: count * 2, as: UInt16.self)
        } else {
            if width == 2 { remap(room: max(capacity, count + 1), width: 4) }  // from two bytes to four, once
            mapping?.base.storeBytes(of: id, toByteOffset: count * 4, as: UInt32.self)
        }
        count += 1
    }

    mutating func appendSeparator() {
        if count == capacity || !isKnownUniquelyReferenced(&mapping) { remap(room: count + 1, width: width) }
        guard let base = mapping?.base else { return }
        if width == 2 {
            base.storeBytes(of: UInt16.max, toByteOffset: count * 2, as: UInt16.self)
        } else {
            base.storeBytes(of: UInt32.max, toByteOffset: count * 4, as: UInt32.self)
        }
        count += 1
    }

    /// Moves the ids into a new mapping of this value's own, with room for `room` ids (at
    /// least twice what there was, when growing) of `newWidth` bytes each.
    @inline(never)
    private mutating func remap(room: Int, width newWidth: Int) {
        let tokens = max(room, count == capacity ? capacity * 2 : capacity, 1024)
        let larger = TokenMapping(bytes: tokens * newWidth)
        if let old = mapping?.base {
            if newWidth == width {
                larger.base.copyMemory(from: old, byteCount: count * width)
            } else {
                for index in 0..<count {
                    let id = old.load(fromByteOffset: index * 2, as: UInt16.self)
                    larger.base.storeBytes(of: id == .max ? UInt32.max : UInt32(id), toByteOffset: index * 4,
                                           as: UInt32.self)
                }
            }
        }
        mapping = larger
        width = newWidth
        capacity = larger.bytes / newWidth
    }

    /// Replaces every id by `map[id]` (the separators stay), in place: the builder numbers a
    /// slice's terms anew in the dictionary's order. Every value of `map` is below the count
    /// of ids there are, so it fits the width.
    mutating func renumber(_ map: [UInt32]) {
        guard count > 0 else { return }
        if !isKnownUniquelyReferenced(&mapping) { remap(room: count, width: width) }
        guard let base = mapping?.base else { return }
        map.withUnsafeBufferPointer { map in
            if width == 4 {
                let ids = base.assumingMemoryBound(to: UInt32.self)
                for index in 0..<count where ids[index] != .max { ids[index] = map[Int(ids[index])] }
            } else {
                let ids = base.assumingMemoryBound(to: UInt16.self)
                for index in 0..<count where ids[index] != .max {
                    ids[index] = UInt16(truncatingIfNeeded: map[Int(ids[index])])
                }
            }
        }
    }

    /// Calls `narrowBody` or `wideBody` with the ids, whichever width they are kept in.
    func withIDs<Result>(narrow narrowBody: (UnsafeBufferPointer<UInt16>) -> Result,
                         wide wideBody: (UnsafeBufferPointer<UInt32>) -> Result) -> Result {
        guard let base = mapping?.base else { return narrowBody(UnsafeBufferPointer(start: nil, count: 0)) }
        if width == 4 {
            return wideBody(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: count))
        }
        return narrowBody(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt16.self), count: count))
    }

    /// Gives the whole pages holding the ids from `released` up to `end` back to the system
    /// once they make a megabyte, and moves `released` to `end`. The mapping stays this value's
    /// (and its copies'); those ids read as zeros afterwards, so only the builder's last pass
    /// calls this — it reads each id once, in order, and drops the slice's tokens after.
    func releasePages(before end: Int, after released: inout Int) {
        guard (end - released) * width >= 1 << 20, let mapping else { return }
        let page = TokenMapping.page
        let lower = (released * width + page - 1) / page * page
        let upper = min(end, count) * width / page * page
        if upper > lower {
            _ = madvise(mapping.base + lower, upper - lower, MADV_DONTNEED)  // a hint on our own mapping
        }
        released = end
    }
}

/// An anonymous mapping of whole pages, made here and unmapped in `deinit` (the memory of
/// `LocalTokens`).
final class TokenMapping {
    static let page = 4096
    let base: UnsafeMutableRawPointer
    /// Its size, whole pages.
    let bytes: Int

    /// A mapping of at least `bytes` bytes. The pages cost nothing until written. Where the
    /// system has no address space left, memory from the allocator would fail the same way, so
    /// this stops with a message.
    init(bytes wanted: Int) {
        bytes = (max(wanted, 1) + Self.page - 1) / Self.page * Self.page
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else {
            preconditionFailure("out of memory: cannot map \(wanted) bytes for a forward index")
        }
        base = address
    }

    deinit {
        munmap(base, bytes)
    }
}
