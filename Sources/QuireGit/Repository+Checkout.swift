import CLibGit2

/// How a checkout treats files that differ from what it expects.
public enum CheckoutMode: Equatable, Sendable {
    /// Only update files that still match the old tree; a file the user changed is left alone
    /// and reported as a conflict (`GitError.Code.conflict`) unless `allowConflicts`.
    case safe(allowConflicts: Bool)
    /// Make the work tree match the target tree, overwriting local changes.
    case force
}

extension Repository {
    /// Updates the work tree (and index) to `tree`. With `paths`, only those paths are touched.
    /// With `baseline`, `.safe` compares files against that tree instead of the index.
    public func checkout(tree: OID, mode: CheckoutMode, paths: [String]? = nil, baseline: OID? = nil) throws {
        var raw = tree.raw
        var object: OpaquePointer?
        try check(git_object_lookup(&object, pointer, &raw, GIT_OBJECT_TREE), "git_object_lookup")
        defer { git_object_free(object) }
        var baselineTree: OpaquePointer?
        defer { git_tree_free(baselineTree) }
        if let baseline {
            var baselineRaw = baseline.raw
            try check(git_tree_lookup(&baselineTree, pointer, &baselineRaw), "git_tree_lookup")
        }
        var options = git_checkout_options()
        try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        switch mode {
        case .safe(let allowConflicts):
            options.checkout_strategy = GIT_CHECKOUT_SAFE.rawValue
            if allowConflicts { options.checkout_strategy |= GIT_CHECKOUT_ALLOW_CONFLICTS.rawValue }
        case .force:
            options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
        }
        options.baseline = baselineTree
        if let paths {
            options.checkout_strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH.rawValue
            try StringArray.with(paths) { array in
                options.paths = array.pointee
                try check(git_checkout_tree(pointer, object, &options), "git_checkout_tree")
            }
        } else {
            try check(git_checkout_tree(pointer, object, &options), "git_checkout_tree")
        }
    }
}
