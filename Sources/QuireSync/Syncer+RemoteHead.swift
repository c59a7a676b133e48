import QuireGit

extension Syncer {
    /// A remote whose HEAD names no branch it has — a bare repository made by `git init --bare`,
    /// HEAD at an unborn `master`, to which this vault pushed `main` — is one a plain `git clone`
    /// checks nothing out of. On a local path or `file://` HEAD is pointed at the upstream branch
    /// (`Remote.pointUnbornHead`); elsewhere the report says so, and the front end says how to
    /// set it on the server. A network remote is judged from this cycle's fetch, so only once it
    /// had the branch (the sync after the first push): right after that push its HEAD is unknown.
    func settleRemoteHead(_ remote: Remote, pushedNewBranch: Bool, remoteHadBranch: Bool, into report: inout SyncReport) {
        let local = StaleLocks.localGitDirectory(remote.url) != nil
        guard local ? (pushedNewBranch || remoteHadBranch) : remoteHadBranch else { return }
        // The last fetch saw HEAD name a branch (the remote advertises it only then): nothing to do.
        if !pushedNewBranch, (try? remote.defaultBranch()) != nil { return }
        do {
            switch try remote.pointUnbornHead(at: upstream) {
            case .fine: break
            case .pointed(let branch): report.remoteHead = .pointed(branch: Upstream.shortName(branch))
            case .unborn: report.remoteHead = .unborn(branch: Upstream.shortName(upstream))
            }
        } catch {
            report.remoteHead = .unborn(branch: Upstream.shortName(upstream))
        }
    }
}
