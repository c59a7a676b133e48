import CLibGit2

extension Repository {
    /// The best common ancestor of two commits, or nil when the histories are unrelated.
    public func mergeBase(_ one: OID, _ two: OID) throws -> OID? {
        var result = git_oid()
        var first = one.raw
        var second = two.raw
        let status = git_merge_base(&result, pointer, &first, &second)
        if status == GIT_ENOTFOUND.rawValue { return nil }
        try check(status, "git_merge_base")
        return OID(result)
    }

    /// Whether `ancestor` is reachable from `descendant` (or equal to it).
    public func isAncestor(_ ancestor: OID, of descendant: OID) throws -> Bool {
        if ancestor == descendant { return true }
        var commit = descendant.raw
        var candidate = ancestor.raw
        return try check(git_graph_descendant_of(pointer, &commit, &candidate), "git_graph_descendant_of") == 1
    }

    /// How many commits `local` has that `upstream` lacks, and the reverse.
    public func aheadBehind(local: OID, upstream: OID) throws -> (ahead: Int, behind: Int) {
        var ahead = 0
        var behind = 0
        var localRaw = local.raw
        var upstreamRaw = upstream.raw
        try check(git_graph_ahead_behind(&ahead, &behind, pointer, &localRaw, &upstreamRaw), "git_graph_ahead_behind")
        return (ahead, behind)
    }

    /// Commits reachable from `start`, newest first (time order, topological for ties);
    /// with `path`, only commits whose tree entry at `path` differs from their first parent's;
    /// with `excluding`, none reachable from that commit.
    public func log(from start: OID, excluding: OID? = nil, path: String? = nil, limit: Int? = nil) throws -> [CommitInfo] {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        try check(git_revwalk_sorting(walk, GIT_SORT_TIME.rawValue | GIT_SORT_TOPOLOGICAL.rawValue),
                  "git_revwalk_sorting")
        var startRaw = start.raw
        try check(git_revwalk_push(walk, &startRaw), "git_revwalk_push")
        if let excluding {
            var hiddenRaw = excluding.raw
            try check(git_revwalk_hide(walk, &hiddenRaw), "git_revwalk_hide")
        }
        var result: [CommitInfo] = []
        var next = git_oid()
        while true {
            let status = git_revwalk_next(&next, walk)
            if status == GIT_ITEROVER.rawValue { break }
            try check(status, "git_revwalk_next")
            let info = try commit(OID(next))
            if let path {
                let here = try entry(atPath: path, inTree: info.tree)?.id
                var before: OID?
                if let parent = info.parents.first {
                    before = try entry(atPath: path, inTree: commit(parent).tree)?.id
                }
                if here == before { continue }
            }
            result.append(info)
            if let limit, result.count >= limit { break }
        }
        return result
    }
}
