import Foundation
import QuireGit

/// The two sides of a note that the git CLI hands to `quire merge-driver`, dated and named as
/// `quire sync` dates and names them, so that the driver decides every collision as any device
/// would recompute it. git passes file names only; the commits come from what git provides:
/// `HEAD` for ours, and for theirs the `GITHEAD_<commit>` variable `git merge` and `git pull`
/// set for the merged head (else `MERGE_HEAD`, else, in a `git pull`, the first line of `FETCH_HEAD`). Each side's
/// time is the author time of the newest commit on that side (down to the merge base) that
/// changed the note (`ChangeTimes`); each side is named by its head commit's `Quire-Device`
/// trailer or author — as the other devices name it (a teammate on plain git is "Ben" to them,
/// and to the driver on Ben's machine too). Where history cannot be read, both sides get
/// `fallback`, ours `device` and theirs "the remote", as before: the merge goes on.
public enum DriverSides {
    /// The sides of `path` (bytes `ours` and `theirs`) in the repository of `workTree`; `device`:
    /// this device's name.
    public static func find(environment: [String: String], workTree: URL, path: String, ours: Data, theirs: Data,
                            device: String, fallback: Date) -> (ours: MergeSide, theirs: MergeSide, names: MergeSideNames) {
        let plain = (MergeSide(data: ours, commitTime: fallback), MergeSide(data: theirs, commitTime: fallback),
                     MergeSideNames(ours: device, theirs: "the remote"))
        guard let repository = try? Repository.open(at: workTree),
              let local = try? repository.headCommitID(),
              let incoming = incomingCommit(environment: environment, repository: repository, workTree: workTree),
              let incomingInfo = try? repository.commit(incoming),
              let localInfo = try? repository.commit(local) else { return plain }
        let base = try? repository.mergeBase(local, incoming)
        guard let oursTimes = try? ChangeTimes(head: local, base: base, wanted: [path], fallback: localInfo.author.time, repository: repository),
              let theirsTimes = try? ChangeTimes(head: incoming, base: base, wanted: [path], fallback: incomingInfo.author.time,
                                                 repository: repository) else { return plain }
        return (oursTimes.side(path, data: ours), theirsTimes.side(path, data: theirs),
                MergeSideNames(ours: CommitTrailers.device(of: localInfo), theirs: CommitTrailers.device(of: incomingInfo)))
    }

    /// The commit being merged in, from git's environment and state files.
    static func incomingCommit(environment: [String: String], repository: Repository, workTree: URL) -> OID? {
        let named = environment.keys.sorted().compactMap { key -> OID? in
            guard key.hasPrefix("GITHEAD_") else { return nil }
            return OID(hex: String(key.dropFirst("GITHEAD_".count)))
        }
        if let first = named.first(where: { (try? repository.commit($0)) != nil }) { return first }
        guard let gitDirectory = DriverContext.gitDirectory(of: workTree) else { return nil }
        // FETCH_HEAD names what a `git pull` merges; in a plain `git merge` it is a stale fetch's.
        let pulling = environment["GIT_REFLOG_ACTION"]?.hasPrefix("pull") == true
        for file in pulling ? ["MERGE_HEAD", "FETCH_HEAD"] : ["MERGE_HEAD"] {
            guard let text = try? String(contentsOf: gitDirectory.appendingPathComponent(file), encoding: .utf8),
                  let id = OID(hex: String(text.prefix(40))), (try? repository.commit(id)) != nil else { continue }
            return id
        }
        return nil
    }
}
