import QuireKit
import QuireSync

/// Maps git and sync failures to the exit codes 3–8 of DESIGN.md §5 (8: an encrypted remote
/// failed verification), with a hint for each.
/// Git errors arrive classified by QuireKit (`GitFailure`): the CLI never sees libgit2's.
enum SyncErrorTranslator {
    static func translate(_ error: Error) -> CLIError? {
        if let error = error as? SyncError { return translate(sync: error) }
        if let error = error as? CarrierError { return translate(carrier: error) }
        if let error = error as? ConflictError {
            return CLIError(error.description, hint: "'quire conflicts --all' lists the ids")
        }
        guard let failure = GitFailure(error) else { return nil }
        return translate(git: failure)
    }

    static func translate(carrier error: CarrierError) -> CLIError {
        switch error {
        case .verificationFailed:
            return CLIError("\(error.description); nothing was changed",
                            hint: "the host, or someone on the way, changed what it holds: your notes and commits here are intact; "
                                + "another device's 'quire sync' re-publishes the vault once the host is trusted again",
                            code: .verificationFailed)
        case .keyUnavailable:
            return CLIError(error.description, hint: "clone the vault again with 'quire clone URL DIR' and its passphrase",
                            code: .authentication)
        case .hostNotEmpty(let encrypted):
            return CLIError(error.description, hint: encrypted ? "join it with 'quire clone URL DIR' and the passphrase"
                                : "an encrypted remote starts in an empty repository: create one on the host")
        case .file:
            return CLIError(error.description)
        }
    }

    static func translate(git failure: GitFailure) -> CLIError {
        let detail = failure.detail
        switch failure.kind {
        case .unknownTransport:
            return CLIError("the remote repository was not found: \(detail)",
                            hint: "a local remote must be an existing repository path; URLs start with ssh://, https://, git:// or user@host:",
                            code: .remoteNotFound)
        case .libraryUnavailable:
            return CLIError(detail, hint: "quire needs libgit2 1.5 for git work: install it (Debian: apt install libgit2-1.5)")
        case .offline:
            return CLIError("the remote cannot be reached: \(detail)",
                            hint: "check the network and the remote URL ('quire remote'); local commits are kept and sync later",
                            code: .offline)
        case .certificateRefused(let problem):
            return CLIError(detail, hint: certificateHint(problem), code: .authentication)
        case .authenticationFailed(let problem):
            return CLIError("authentication failed: \(detail)", hint: credentialsHint(problem), code: .authentication)
        case .repositoryNotFound(let advice):
            return CLIError("the remote repository was not found, or the server refuses it: \(detail)",
                            hint: "check the URL with 'quire remote' and that the repository exists on the server"
                                + (advice.map { "; " + $0 } ?? ""),
                            code: .remoteNotFound)
        case .pushRejected:
            return CLIError("the remote rejected the push: \(detail)",
                            hint: "run 'quire sync' again; if it keeps failing, check the branch protection on the server",
                            code: .pushRejected)
        case .pushRefusedByServer:
            return CLIError("the server refused the push: \(detail)",
                            hint: "your changes stay committed on this device; the server will refuse them the same way "
                                + "until its rule allows the push: see its message, or ask the server's administrator",
                            code: .pushRejected)
        case .notARepository:
            return CLIError("the vault is not a git repository: \(detail)",
                            hint: "run 'quire init' in it to make it one (its notes are adopted untouched)")
        case .gitLocked:
            // The lock may be the vault's (`.git/index.lock`) or a path remote's: name the one held.
            let lock = lockFile(named: detail)
            return CLIError("another git command holds a lock of the repository: \(detail)",
                            hint: "wait for it to finish and run the command again; if no git command is running (one crashed), "
                                + "remove \(lock ?? ".git/index.lock")",
                            code: .locked)
        case .other:
            return CLIError("git operation failed: \(detail)")
        }
    }

    /// The lock file a git failure's words name (libgit2: "failed to lock file '…/x.lock' for
    /// writing"), if they name one.
    static func lockFile(named detail: String) -> String? {
        let quoted = detail.split(separator: "'", omittingEmptySubsequences: false)
        return stride(from: 1, to: quoted.count - 1, by: 2).lazy.map { String(quoted[$0]) }.first { $0.hasSuffix(".lock") }
    }

    /// What to do when the server did not accept who we are: fitting the transport and whether
    /// credentials were missing or refused.
    private static func credentialsHint(_ problem: GitFailure.CredentialProblem) -> String {
        let ssh = "for ssh: load your key into ssh-agent (ssh-add) or name it with sshKey: in .quire/local/config.yml"
        let https = "for https: set QUIRE_GIT_TOKEN (sent as user 'quire', or QUIRE_GIT_USER, or the user named in the URL)"
            + " or configure a git credential helper"
        switch problem {
        case .missing(ssh: true): return ssh
        case .missing(ssh: false): return https
        case .refused(ssh: true):
            return "add this device's public key to your account on the server, or name the right key with sshKey: in .quire/local/config.yml"
        case .refused(ssh: false):
            return "check the token and the user name sent with it: the one in the URL (https://NAME@host/…), else QUIRE_GIT_USER, else 'quire'"
        case .unknown: return ssh + "; " + https
        case .httpRefused:
            return "the https server refused the request: check that the account may do this here (write access for a push);"
                + " if the server needs a login for it, set QUIRE_GIT_TOKEN or configure a git credential helper"
        }
    }

    /// What to do about a host key or certificate that was refused.
    private static func certificateHint(_ problem: GitFailure.CertificateProblem) -> String {
        switch problem {
        case .untrustedCertificate(let fingerprint):
            return "if this is your server's certificate, trust it: quire remote --pin-certificate \(fingerprint)"
                + " (for a clone: quire clone --pin-certificate \(fingerprint) URL), or set http.sslCAInfo"
                + " to the authority that issued it"
        case .changedHostKey:
            return "if the server's key was changed on purpose, remove the old one (ssh-keygen -R HOST) and trust the new one;"
                + " otherwise do not sync over this network"
        case .other:
            return "compare the fingerprint with the server's own (ssh-keygen -lf on its host key) before trusting it"
        }
    }

    private static func translate(sync error: SyncError) -> CLIError {
        switch error {
        case .noRemote:
            return CLIError(error.description, hint: "set one with 'quire remote URL' (e.g. git@github.com:me/notes.git)")
        case .locked:
            return CLIError(error.description, hint: "wait for the other sync to finish; a crashed quire never keeps the lock",
                            code: .locked)
        case .detachedHead:
            return CLIError(error.description, hint: "go back to the branch with 'git switch main', then sync")
        case .operationInProgress(let kind):
            let commands = ["merge": "'git merge --continue' or 'git merge --abort'",
                            "rebase": "'git rebase --continue' or 'git rebase --abort'",
                            "cherry-pick": "'git cherry-pick --continue' or 'git cherry-pick --abort'",
                            "revert": "'git revert --continue' or 'git revert --abort'", "bisect": "'git bisect reset'"]
            return CLIError(error.description, hint: "finish or abort it with the git CLI (\(commands[kind] ?? "'git status' says how")), then sync")
        case .shallowRepository:
            return CLIError(error.description,
                            hint: "fetch the whole history once with 'git fetch --unshallow', then sync (or make the vault with 'quire clone')")
        case .pushRejectedAfterRetries:
            return CLIError(error.description, hint: "run 'quire sync' again; check the branch protection on the server",
                            code: .pushRejected)
        case .nothingToUndo:
            return CLIError(error.description, hint: "undo goes back to the state before the last merge of a sync")
        case .undoWouldRevertLaterWork:
            return CLIError(error.description,
                            hint: "nothing was changed. 'quire undo --force' reverts those files too (every version stays in history: 'quire history NOTE'); or restore what you need with 'quire restore NOTE --at REV'")
        case .undoCollidesWithEdits:
            return CLIError(error.description,
                            hint: "nothing was changed. Copy the edit aside, put the file back ('git restore FILE'), undo and make the edit again; or 'quire sync' first (the edit is then later work, which 'quire undo --force' reverts too)")
        case .noDefaultRemoteBranch:
            return CLIError(error.description,
                            hint: "choose the one to sync with: git branch --set-upstream-to=origin/NAME, then sync")
        case let .unreadableState(path, _):
            return CLIError(error.description,
                            hint: "nothing was changed. Use the quire that wrote it, or move the file aside (mv \(path) \(path).bad) to start afresh: notes you edited during the last sync are then committed as they are — check them with 'git diff' first")
        case let .interrupted(signal, _):
            return CLIError(error.description, hint: "run 'quire sync' to finish it; nothing was lost",
                            code: signal == 15 ? .terminated : .interrupted)
        case .file, .injectedFault:
            return CLIError(error.description)
        }
    }
}
