/// A reference a server refused during a push: its name, the status the server gave for it
/// (git's receive-pack: "pre-receive hook declined", "failed to update ref", …) and what that
/// means.
///
/// A smart server checks the value the push expects the branch to have (the one it advertised
/// when the push connected). When another device's push lands in between, receive-pack finds
/// the branch moved and refuses the update, with the status "failed to update ref" ("failed to
/// lock" before git 2.x) and, on the sideband, `cannot lock ref 'refs/heads/main': is at X but
/// expected Y`. That is a non-fast-forward in effect — fetching, merging and pushing again cures
/// it — not the server's rule refusing the push.
struct RefRejection: Equatable {
    /// The refused reference, e.g. `refs/heads/main`.
    let reference: String
    /// The server's status for it.
    let status: String

    /// Statuses that alone say the branch was not where the push expected it.
    private static let movedStatuses = ["non-fast-forward", "fetch first", "stale info", "failed to lock"]
    /// Statuses for a reference update that failed, for one reason or another.
    private static let failedUpdateStatuses = ["failed to update ref", "failed to lock"]
    /// What git's reference store says when the branch moved under the update (its
    /// `lock_raw_ref` and `verify_lock` messages), or when another push held its lock right then.
    private static let movedWords = ["but expected", "reference already exists", "reference is missing",
                                     ".lock': file exists"]

    /// Whether the refusal means the branch moved on the server since this push read it: the
    /// status says so, or the update failed and the server's lines (`serverLines`, its
    /// sideband text) say the reference lock found another value there. A hook's or a
    /// protected branch's refusal is never read as one, whatever the hook printed.
    func remoteMoved(serverLines: [String]) -> Bool {
        let status = self.status.lowercased().trimmingCharacters(in: .whitespaces)
        if Self.movedStatuses.contains(status) { return true }
        guard Self.failedUpdateStatuses.contains(status) else { return false }
        return serverLines.contains { line in
            let text = line.lowercased()
            return text.contains("cannot lock ref") && Self.movedWords.contains { text.contains($0) }
        }
    }
}
