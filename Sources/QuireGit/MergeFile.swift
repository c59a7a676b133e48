import CLibGit2
import Foundation

/// The outcome of a three-way content merge.
public struct MergeFileResult: Equatable, Sendable {
    /// The merged bytes (with git's conflict markers where `conflicted`).
    public var data: Data
    /// Whether some hunks collided (libgit2 could not merge automatically).
    public var conflicted: Bool
}

/// Three-way merge of file contents in memory, through `git_merge_file` (no repository).
public enum MergeFile {
    /// Merges `ours` and `theirs` against their common `base` (nil = empty ancestor). With
    /// `favoringTheirs`, hunks that collide take `theirs` (`GIT_MERGE_FILE_FAVOR_THEIRS`): the
    /// result is never conflicted, and every other change of both sides stays.
    public static func merge(base: Data?, ours: Data, theirs: Data, path: String = "file",
                             favoringTheirs: Bool = false) throws -> MergeFileResult {
        try LibGit2.ensure()
        var options = git_merge_file_options()
        try check(git_merge_file_options_init(&options, UInt32(GIT_MERGE_FILE_OPTIONS_VERSION)),
                  "git_merge_file_options_init")
        if favoringTheirs { options.favor = GIT_MERGE_FILE_FAVOR_THEIRS }
        let baseData = base ?? Data()
        return try baseData.withUnsafeBytes { baseBytes in
            try ours.withUnsafeBytes { ourBytes in
                try theirs.withUnsafeBytes { theirBytes in
                    try path.withCString { cPath in
                        var ancestor = try input(baseBytes, cPath)
                        var ourInput = try input(ourBytes, cPath)
                        var theirInput = try input(theirBytes, cPath)
                        var result = git_merge_file_result()
                        try check(git_merge_file(&result, &ancestor, &ourInput, &theirInput, &options), "git_merge_file")
                        defer { git_merge_file_result_free(&result) }
                        let merged = result.ptr.map { Data(bytes: $0, count: result.len) } ?? Data()
                        return MergeFileResult(data: merged, conflicted: result.automergeable == 0)
                    }
                }
            }
        }
    }

    private static func input(_ bytes: UnsafeRawBufferPointer, _ path: UnsafePointer<CChar>) throws -> git_merge_file_input {
        var value = git_merge_file_input()
        try check(git_merge_file_input_init(&value, UInt32(GIT_MERGE_FILE_INPUT_VERSION)), "git_merge_file_input_init")
        value.ptr = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        value.size = bytes.count
        value.path = path
        value.mode = GIT_FILEMODE_BLOB.rawValue
        return value
    }
}
