import CLibGit2
import Foundation

extension Repository {
    /// A git pack (the bytes of a `.pack` file) of every object reachable from `tip` and not from
    /// any of `hiding` — what a push of `tip` sends to a remote that has `hiding` — built with
    /// libgit2's pack builder. Tips in `hiding` this repository lacks are passed over. Build it
    /// on a handle from `forPushing()` to leave out the delta search.
    public func pack(from tip: OID, hiding: [OID]) throws -> Data {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        var tipRaw = tip.raw
        try check(git_revwalk_push(walk, &tipRaw), "git_revwalk_push")
        for hidden in hiding {
            var raw = hidden.raw
            let result = git_revwalk_hide(walk, &raw)
            if result == GIT_ENOTFOUND.rawValue { continue }
            try check(result, "git_revwalk_hide")
        }
        var builder: OpaquePointer?
        try check(git_packbuilder_new(&builder, pointer), "git_packbuilder_new")
        defer { git_packbuilder_free(builder) }
        _ = git_packbuilder_set_threads(builder, 0)  // one per core
        try check(git_packbuilder_insert_walk(builder, walk), "git_packbuilder_insert_walk")
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try check(git_packbuilder_write_buf(&buffer, builder), "git_packbuilder_write_buf")
        guard let bytes = buffer.ptr else { return Data() }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// Stores the objects of `pack` (the bytes of a `.pack` file, as `pack(from:hiding:)` makes
    /// them) in the object database through libgit2's indexer (`git_odb_write_pack`: the pack
    /// and its `.idx` under `objects/pack/`). A pack that does not parse throws and stores nothing.
    public func indexPack(_ pack: Data) throws {
        try withPackWriter { append in
            var offset = 0
            while offset < pack.count {
                let end = min(offset + (1 << 20), pack.count)
                try append(Array(pack[pack.startIndex + offset..<pack.startIndex + end]))
                offset = end
            }
        }
    }

    /// Runs `write` with a function appending bytes to a new pack of the object database, then
    /// commits the pack (indexed, then visible to readers). A pack not committed (an error) is
    /// removed with its temporary files.
    func withPackWriter(_ write: (_ append: ([UInt8]) throws -> Void) throws -> Void) throws {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        var raw: UnsafeMutablePointer<git_odb_writepack>?
        try check(git_odb_write_pack(&raw, odb, nil, nil), "git_odb_write_pack")
        guard let writepack = raw, let append = writepack.pointee.append, let commit = writepack.pointee.commit else {
            throw GitError(function: "git_odb_write_pack", code: .other(-1), message: "no pack writer")
        }
        defer { writepack.pointee.free?(writepack) }
        var stats = git_indexer_progress()
        try write { chunk in
            _ = try chunk.withUnsafeBytes { bytes in
                try check(append(writepack, bytes.baseAddress, bytes.count, &stats), "git_odb_writepack append")
            }
        }
        try check(commit(writepack, &stats), "git_odb_writepack commit")
        try check(git_odb_refresh(odb), "git_odb_refresh")
    }
}
