#if canImport(Glibc)
import Glibc
#endif

/// git's conflict markers left in a file: a line starting `<<<<<<< `, then a line `=======`,
/// then a line starting `>>>>>>> `, in that order and outside fenced code (a note that shows a
/// conflict in a code block is not one). A rebase, cherry-pick or stash that quire's merge
/// driver leaves to the user writes them (Docs/sync.md, "The git CLI"); committed unresolved,
/// they would sync to every device. `quire check` names such a note.
public enum ConflictMarkers {
    /// The 1-based line of the first `<<<<<<<` of a complete set of markers in `bytes`, or nil.
    public static func firstLine(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 8, mayHold(bytes) else { return nil }  // most notes: one pass of memchr
        var line = 0
        var start = 0
        var fence: UInt8? = nil
        var opened: Int? = nil
        var separated = false
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            line += 1
            var text = bytes[start..<end]
            if text.last == 0x0D { text = text.dropLast() }
            let first = text.first
            if (first == UInt8(ascii: "`") || first == UInt8(ascii: "~")) && text.count >= 3
                && text.prefix(3).allSatisfy({ $0 == first }) {
                if fence == nil { fence = first } else if fence == first { fence = nil }
            } else if fence == nil {
                if starts(text, "<<<<<<<") {
                    opened = line
                    separated = false
                } else if opened != nil && text.count == 7 && starts(text, "=======") {
                    separated = true
                } else if let openedLine = opened, separated, starts(text, ">>>>>>>") {
                    return openedLine
                }
            }
            start = end + 1
        }
        return nil
    }

    /// Whether a line of `bytes` starts with `<<<<<<<` (found with `memchr`, no line split).
    private static func mayHold(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, 0x3C, bytes.count - offset) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if (at == 0 || bytes[at - 1] == 0x0A) && at + 7 <= bytes.count
                && (at..<(at + 7)).allSatisfy({ bytes[$0] == 0x3C }) { return true }
            offset = at + 1
        }
        return false
    }

    /// Whether `text` is `marker` alone or `marker` followed by a space and a label.
    private static func starts(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ marker: StaticString) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard text.count >= count else { return false }
        let head = marker.utf8Start
        for offset in 0..<count where text[text.startIndex + offset] != head[offset] { return false }
        return text.count == count || text[text.startIndex + count] == 0x20
    }
}
