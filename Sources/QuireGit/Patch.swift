import CLibGit2
import Foundation

/// A unified diff of two buffers in memory, through `git_patch_from_buffers` (no repository):
/// what `git diff` prints for one file.
public enum Patch {
    /// The diff from `old` to `new` (`diff --git a/<oldPath> b/<newPath>`, `---`/`+++` lines and
    /// hunks with `context` lines around each change); empty when the buffers are equal.
    public static func unified(old: Data, new: Data, oldPath: String, newPath: String, context: Int = 3) throws -> String {
        try LibGit2.ensure()
        var options = git_diff_options()
        try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
        options.context_lines = UInt32(max(0, context))
        var patch: OpaquePointer?
        try old.withUnsafeBytes { oldBytes in
            try new.withUnsafeBytes { newBytes in
                _ = try check(git_patch_from_buffers(&patch, oldBytes.baseAddress, oldBytes.count, oldPath,
                                                     newBytes.baseAddress, newBytes.count, newPath, &options),
                              "git_patch_from_buffers")
            }
        }
        // The patch is ours (freed here); a NULL patch means the buffers are equal.
        defer { git_patch_free(patch) }
        guard let patch else { return "" }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try check(git_patch_to_buf(&buffer, patch), "git_patch_to_buf")
        guard let bytes = buffer.ptr else { return "" }
        return String(decoding: Data(bytes: bytes, count: buffer.size), as: UTF8.self)
    }
}
