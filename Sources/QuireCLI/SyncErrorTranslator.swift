import QuireGit

/// Maps git errors to the exit codes 3–6 of DESIGN.md §5, with a hint for each.
enum SyncErrorTranslator {
    static func translate(_ error: Error) -> CLIError? {
        guard let error = error as? GitError else { return nil }
        let detail = "\(error.message) (\(error.function))"
        // libgit2 reports a local path that does not exist as an unknown protocol.
        if error.message.lowercased().contains("unsupported url protocol") {
            return CLIError("the remote repository was not found: \(detail)",
                            hint: "a local remote must be an existing repository path; URLs start with ssh://, https://, git:// or user@host:",
                            code: .remoteNotFound)
        }
        switch error.category {
        case .offline:
            return CLIError("the remote cannot be reached: \(detail)",
                            hint: "check the network and the remote URL ('quire remote'); local commits are kept and sync later",
                            code: .offline)
        case .authentication:
            return CLIError("authentication failed: \(detail)",
                            hint: "for ssh: load your key into ssh-agent or set sshKey in .quire/local/config.yml; for https: set QUIRE_GIT_TOKEN or a git credential helper",
                            code: .authentication)
        case .repositoryNotFound:
            return CLIError("the remote repository was not found: \(detail)",
                            hint: "check the URL with 'quire remote' and that the repository exists on the server",
                            code: .remoteNotFound)
        case .pushRejected:
            return CLIError("the remote rejected the push: \(detail)",
                            hint: "run 'quire sync' again; if it keeps failing, check the branch protection on the server",
                            code: .pushRejected)
        case .other:
            return CLIError("git operation failed: \(detail)")
        }
    }
}
