import CLibGit2
import Foundation

/// Content as git compares it: through the repository's filters — `core.autocrlf`, the `text`,
/// `eol` and `crlf` attributes of `.gitattributes` and `.git/info/attributes`, and `ident` —
/// so that a work-tree file with CRLF line breaks is the same content as its LF blob wherever
/// git would say so.
extension Repository {
    /// The blob id `git add` would give the work-tree file at `path` (relative to the work
    /// tree): its bytes through the clean filters, hashed without being stored.
    public func hashWorkTreeFile(_ path: String) throws -> OID {
        var result = git_oid()
        try check(git_repository_hashfile(&result, pointer, path, GIT_OBJECT_BLOB, nil), "git_repository_hashfile")
        return OID(result)
    }

    /// Blob `id`'s bytes as a checkout writes them at `path`: through the smudge filters
    /// (the raw bytes when none applies).
    public func workTreeData(_ id: OID, path: String) throws -> Data {
        var raw = id.raw
        var blob: OpaquePointer?
        try check(git_blob_lookup(&blob, pointer, &raw), "git_blob_lookup")
        defer { git_blob_free(blob) }
        var options = git_blob_filter_options()
        try check(git_blob_filter_options_init(&options, UInt32(GIT_BLOB_FILTER_OPTIONS_VERSION)),
                  "git_blob_filter_options_init")
        // Not `GIT_BLOB_FILTER_CHECK_FOR_BINARY` (set by default): with it a blob holding a nul
        // byte (an image, a PDF) came back empty, and the sync wrote and committed an empty file.
        // The filters themselves leave binary content alone, as a checkout does.
        options.flags &= ~GIT_BLOB_FILTER_CHECK_FOR_BINARY.rawValue
        var buffer = git_buf()
        // Without filters the buffer points into the blob: copied out before the blob is freed.
        defer { git_buf_dispose(&buffer) }
        try check(git_blob_filter(&buffer, blob, path, &options), "git_blob_filter")
        guard let bytes = buffer.ptr, buffer.size > 0 else { return Data() }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// `data`, the content of a work-tree file at `path`, as git would store it: through the
    /// clean filters (unchanged when none applies).
    public func cleanData(_ data: Data, path: String) throws -> Data {
        try filter(data, path: path, mode: GIT_FILTER_TO_ODB)
    }

    /// `data`, content as stored, as a checkout would write it at `path`: through the smudge
    /// filters (unchanged when none applies).
    public func workTreeData(_ data: Data, path: String) throws -> Data {
        try filter(data, path: path, mode: GIT_FILTER_TO_WORKTREE)
    }

    private func filter(_ data: Data, path: String, mode: git_filter_mode_t) throws -> Data {
        var filters: OpaquePointer?
        try check(git_filter_list_load(&filters, pointer, nil, path, mode, GIT_FILTER_DEFAULT.rawValue), "git_filter_list_load")
        guard let filters else { return data }
        defer { git_filter_list_free(filters) }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        _ = try data.withUnsafeBytes { bytes in
            try check(git_filter_list_apply_to_buffer(&buffer, filters, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                                      bytes.count), "git_filter_list_apply_to_buffer")
        }
        guard let bytes = buffer.ptr, buffer.size > 0 else { return Data() }
        return Data(bytes: bytes, count: buffer.size)
    }
}
