import CLibGit2
import Foundation

/// One change between two line sequences: the lines `old` of the first are replaced by the lines
/// `new` of the second (0-based, half-open; an empty `old` is an insertion before line
/// `old.lowerBound`, an empty `new` a deletion).
public struct LineChange: Equatable, Sendable {
    /// The lines of the old sequence this change replaces.
    public var old: Range<Int>
    /// The lines of the new sequence that replace them.
    public var new: Range<Int>

    /// Creates a change.
    public init(old: Range<Int>, new: Range<Int>) {
        self.old = old
        self.new = new
    }
}

/// The changes between two texts, line by line, through libgit2's diff (xdiff: Myers with its
/// cost heuristics, so a diff of two unrelated large texts stays bounded) with no context lines:
/// changes separated by one unchanged line are two changes, not one hunk.
public enum LineDiff {
    /// The changes that turn `old` into `new`, in order. Lines end with their `\n` (a last line
    /// without one is a line too); bytes are compared as they are (NUL and invalid UTF-8 included).
    public static func changes(old: Data, new: Data) throws -> [LineChange] {
        if old == new { return [] }
        try LibGit2.ensure()
        var options = git_diff_options()
        try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
        options.context_lines = 0
        options.interhunk_lines = 0
        options.flags |= GIT_DIFF_FORCE_TEXT.rawValue
        var patch: OpaquePointer?
        try old.withUnsafeBytes { oldBytes in
            try new.withUnsafeBytes { newBytes in
                // Empty buffers are passed as a pointer to nothing (a NULL buffer reads as absent).
                let empty: UInt8 = 0
                try withUnsafePointer(to: empty) { nothing in
                    _ = try check(git_patch_from_buffers(&patch, oldBytes.baseAddress ?? UnsafeRawPointer(nothing), oldBytes.count,
                                                         "a", newBytes.baseAddress ?? UnsafeRawPointer(nothing), newBytes.count,
                                                         "b", &options), "git_patch_from_buffers")
                }
            }
        }
        // The patch is ours (freed here); a NULL patch means the buffers are equal.
        defer { git_patch_free(patch) }
        guard let patch else { return [] }
        var result: [LineChange] = []
        let count = git_patch_num_hunks(patch)
        result.reserveCapacity(count)
        for index in 0..<count {
            // The hunk is borrowed from the patch: read, never freed.
            var hunk: UnsafePointer<git_diff_hunk>?
            var lines = 0
            try check(git_patch_get_hunk(&hunk, &lines, patch, index), "git_patch_get_hunk")
            guard let hunk else { continue }
            let oldCount = Int(hunk.pointee.old_lines), newCount = Int(hunk.pointee.new_lines)
            // Unified-diff numbering: 1-based, and for an empty side the line *before* the change.
            let oldStart = oldCount == 0 ? Int(hunk.pointee.old_start) : Int(hunk.pointee.old_start) - 1
            let newStart = newCount == 0 ? Int(hunk.pointee.new_start) : Int(hunk.pointee.new_start) - 1
            result.append(LineChange(old: oldStart..<(oldStart + oldCount), new: newStart..<(newStart + newCount)))
        }
        return result
    }

    /// The changes that turn the sequence `old` into `new`, element by element (each element a
    /// small number naming a distinct item: a line, a word), by the same diff.
    public static func changes(old: [Int32], new: [Int32]) throws -> [LineChange] {
        try changes(old: encoded(old), new: encoded(new))
    }

    /// Each number as a line of its own (`17\n`), for the line diff.
    private static func encoded(_ items: [Int32]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count * 4)
        var digits: [UInt8] = []
        for item in items {
            var value = UInt32(bitPattern: item)
            digits.removeAll(keepingCapacity: true)
            repeat {
                digits.append(UInt8(ascii: "0") + UInt8(value % 10))
                value /= 10
            } while value > 0
            bytes.append(contentsOf: digits.reversed())
            bytes.append(0x0A)
        }
        return Data(bytes)
    }
}
