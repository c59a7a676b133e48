import Foundation
import QuireGit

/// Another device that syncs under this device's name: a commit whose `Quire-Device` trailer
/// names this device arrived from the remote, and this device never made it (it is not in its
/// branch's reflog, which a `git reset` or a re-made commit would leave it in). Two devices of
/// one name (two laptops of one host name, no `device:` set) read alike in a sync's report and
/// in `quire conflicts`: "kept this device's version, dropped this device's version".
public struct Namesake: Equatable, Sendable {
    /// The name both devices sync under.
    public let device: String
    /// The newest arriving commit the other device made (hex).
    public let commit: String
    /// When it was committed.
    public let time: Date

    /// How many arriving commits, newest first, are looked at: a device that still syncs under
    /// the name has recent ones; a first pull of a long history stays quick.
    static let commitsLooked = 1_000

    /// The namesake among the commits `tip` brings that `local` lacks, if any; `own`: a commit
    /// of this device's that its branch never pointed at.
    static func find(device: String, arriving tip: OID, local: OID, branch: String, own: OID? = nil,
                     repository: Repository) throws -> Namesake? {
        var ownCommits: Set<OID>?
        for commit in try repository.log(from: tip, excluding: local, limit: commitsLooked) where commit.id != own {
            // Only quire's trailer names a device: a plain git commit's author is a person.
            guard CommitTrailers.value("Quire-Device", in: commit.message) == device else { continue }
            if ownCommits == nil { ownCommits = try repository.reflogTargets(of: branch) }
            if ownCommits?.contains(commit.id) == true { continue }
            return Namesake(device: device, commit: commit.id.hex, time: commit.committer.time)
        }
        return nil
    }
}
